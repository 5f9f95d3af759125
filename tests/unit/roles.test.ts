import { type Role, roleRank } from '#shared/users/model';
import { judge, managedRoles, type UserAction, type Verdict } from '#shared/users/roles';

const actors: Role[] = ['SUPERADMIN', 'ADMIN', 'USER'];
type TargetKind = Role | 'self' | 'missing';
const targets: TargetKind[] = ['SUPERADMIN', 'ADMIN', 'USER', 'self', 'missing'];

/** The rules written out by hand, one row per actor and target, independent of the implementation. */
const onTarget: Record<Role, Record<TargetKind, Verdict>> = {
  SUPERADMIN: {
    SUPERADMIN: 'not_found',
    ADMIN: 'allowed',
    USER: 'allowed',
    self: 'not_found',
    missing: 'not_found',
  },
  ADMIN: {
    SUPERADMIN: 'not_found',
    ADMIN: 'not_found',
    USER: 'allowed',
    self: 'not_found',
    missing: 'not_found',
  },
  USER: {
    SUPERADMIN: 'forbidden',
    ADMIN: 'forbidden',
    USER: 'forbidden',
    self: 'forbidden',
    missing: 'forbidden',
  },
};
const grantable: Record<Role, Record<Role, boolean>> = {
  SUPERADMIN: { SUPERADMIN: false, ADMIN: true, USER: true },
  ADMIN: { SUPERADMIN: false, ADMIN: false, USER: true },
  USER: { SUPERADMIN: false, ADMIN: false, USER: false },
};

const actor = (role: Role) => ({ id: `actor-${role}`, role });
const target = (kind: TargetKind, actorRole: Role) =>
  kind === 'missing' ? undefined : kind === 'self' ? actor(actorRole) : { id: `target-${kind}`, role: kind };

const byIdCases = actors.flatMap((actorRole) =>
  (['get', 'update', 'delete'] as const).flatMap((action) =>
    targets.map((kind) => [actorRole, action, kind, onTarget[actorRole][kind]] as const),
  ),
);

test.each(byIdCases)('%s %s on %s: %s', (actorRole, action, kind, expected) => {
  expect(judge(actor(actorRole), action, target(kind, actorRole))).toBe(expected);
});

const listCases = actors.map((role) => [role, role === 'USER' ? 'forbidden' : 'allowed'] as const);

test.each(listCases)('%s lists users: %s', (role, expected) => {
  expect(judge(actor(role), 'list')).toBe(expected);
});

const createCases = actors.flatMap((actorRole) =>
  actors.map(
    (granted) => [actorRole, granted, grantable[actorRole][granted] ? 'allowed' : 'forbidden'] as const,
  ),
);

test.each(createCases)('%s creates a %s: %s', (actorRole, granted, expected) => {
  expect(judge(actor(actorRole), 'create', undefined, granted)).toBe(expected);
});

/** A grant is judged only once the target is one the caller may act on (404 before 403). */
const grantCases = actors.flatMap((actorRole) =>
  targets.flatMap((kind) =>
    actors.map((granted) => {
      const onIt = onTarget[actorRole][kind];
      const expected: Verdict =
        onIt !== 'allowed' ? onIt : grantable[actorRole][granted] ? 'allowed' : 'forbidden';
      return [actorRole, kind, granted, expected] as const;
    }),
  ),
);

test.each(grantCases)('%s updates %s to role %s: %s', (actorRole, kind, granted, expected) => {
  expect(judge(actor(actorRole), 'update', target(kind, actorRole), granted)).toBe(expected);
});

test('SUPERADMIN is never grantable nor manageable, and nobody manages their own role', () => {
  for (const role of actors) {
    expect(managedRoles(role)).not.toContain('SUPERADMIN');
    expect(managedRoles(role)).not.toContain(role);
  }
});

test('the roles a caller manages are a contiguous band of ranks (the listing is one key range)', () => {
  for (const role of actors) {
    const ranks = managedRoles(role).map(roleRank);
    if (ranks.length > 0) expect(Math.max(...ranks) - Math.min(...ranks)).toBe(ranks.length - 1);
  }
});

const allActions: UserAction[] = ['list', 'create', 'get', 'update', 'delete'];
test.each(allActions)('a USER is refused %s whatever it targets or grants', (action) => {
  for (const kind of targets) {
    for (const granted of [undefined, ...actors]) {
      expect(judge(actor('USER'), action, target(kind, 'USER'), granted)).toBe('forbidden');
    }
  }
});
