import { config } from '#shared/config/service';
import { findRoute, type LinkRoute } from '#shared/links/route-items';
import { countLinkView } from '#shared/links/views';
import { addressSubject } from '#shared/throttle/address';
import { countAttempt, refundAttempt } from '#shared/throttle/counter';
import { hasViewsLeft } from '#shared/views/counters';

/** A password check: bcrypt against the hash, or the same work against a dummy when there is none. */
export type PasswordCheck = (password: string, hash: string | undefined) => Promise<boolean>;

/**
 * Where `/go/{name}` sends a visitor: the destination (a view counted), the password form of a
 * protected link (nothing counted), or nothing: unknown, disabled and out of views all read alike.
 */
export type Visit =
  | { kind: 'redirect'; destination: string }
  | { kind: 'password'; linkId: string }
  | { kind: 'none' };

const NONE: Visit = { kind: 'none' };

/** The link at `name` if a visit may open it: enabled, and with views left when it has a limit. */
const open = (route: LinkRoute | undefined) =>
  route?.enabled && hasViewsLeft(route.viewsBeforeLimit, route.maxViews) ? route : undefined;

/** A redirect: one GetItem (the name's route item) and, for an open unprotected link, one UpdateItem. */
export async function visitLink(name: string): Promise<Visit> {
  const route = open(await findRoute(name));
  if (!route) return NONE;
  if (route.passwordHash !== null) return { kind: 'password', linkId: route.linkId };
  return (await countLinkView(route)) ? { kind: 'redirect', destination: route.destination } : NONE;
}

/** What a visit by the link's id finds without counting (`/view/url/{id}`: the form or the redirect). */
export async function peekLink(linkId: string): Promise<LinkRoute | undefined> {
  return open(await findRoute(linkId));
}

/**
 * A password given for a link (the form, `POST /api/user/urls/{id}/password`). Counted before
 * anything is read, per client address (with the file passwords': one bound on anonymous bcrypt
 * work) and per link name (wrong guesses: a right one gives its attempt back), so a refusal costs
 * the same whether the link exists or not: 429 with Retry-After past either. Right: the route;
 * wrong, unknown, disabled, out of views or unprotected: undefined. Counts no view.
 */
export async function checkLinkPassword(
  name: string,
  guess: { value: string; sourceIp: string; check: PasswordCheck },
): Promise<LinkRoute | undefined> {
  const limits = config().throttle;
  await countAttempt({
    scope: 'file-password-address',
    subject: addressSubject(guess.sourceIp),
    max: limits.filePasswordPerAddress,
  });
  const byName = await countAttempt({
    scope: 'link-password',
    subject: name.toLowerCase(),
    max: limits.filePasswordPerFile,
  });
  const route = open(await findRoute(name));
  const right = await guess.check(guess.value, route?.passwordHash ?? undefined);
  if (!right || !route?.passwordHash) return undefined;
  await refundAttempt(byName);
  return route;
}

/** Opens a protected link whose password was right: the view counted, the destination, or nothing. */
export async function enterLink(route: LinkRoute): Promise<Visit> {
  return (await countLinkView(route)) ? { kind: 'redirect', destination: route.destination } : NONE;
}
