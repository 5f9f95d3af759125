import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { App } from 'aws-cdk-lib';
import { type Area, type HttpMethod, type Route, route } from '#shared/routes/route';
import { routes } from '#shared/routes/table';
import { areaStackId } from '../../infra/area-stack.ts';
import { PROJECT_ROOT } from '../../infra/project-root.ts';
import { RESOURCE_BUDGET } from '../../infra/resource-figures.ts';
import { FileServiceStack, type FileServiceStackProps } from '../../infra/stack.ts';
import { stackTemplates } from '../support/stack-template.ts';

/** Synthesizes without bundling (no count depends on it) and counts each stack's resources. */
function resourceCounts(props: FileServiceStackProps = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new FileServiceStack(app, 'FileService', props);
  const { parent, areas } = stackTemplates(stack);
  const templates = [parent, ...areas];
  return {
    stack,
    templates,
    counts: Object.fromEntries([
      ['parent', Object.keys(parent.Resources).length],
      ...stack.areas.map((area, index) => [area.node.id, Object.keys(areas[index]?.Resources ?? {}).length]),
    ]) as Record<string, number>,
  };
}

const overBudget = (counts: Record<string, number>) =>
  Object.entries(counts).filter(([, count]) => count > RESOURCE_BUDGET);

describe(`every stack (parent or area) stays within ${RESOURCE_BUDGET} resources`, () => {
  test('with the route table as it is, whatever the options add', () => {
    expect(overBudget(resourceCounts().counts)).toEqual([]);
    const fullest = resourceCounts({
      alarmEmail: 'ops@example.com',
      allowedOrigins: ['https://a.example'],
      oauth: { providers: [{ id: 'github', clientId: 'id' }], signup: false },
    });
    expect(overBudget(fullest.counts)).toEqual([]);
  });

  test('with 100 more routes spread over the areas, each its own function (the dearest kind)', () => {
    // A handler module per synthetic route (NodejsFunction insists its entry exists, under the
    // project), in node_modules/.cache; each a signed-in route of its area, as the table's lines are made.
    const cache = join(PROJECT_ROOT, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const directory = mkdtempSync(join(cache, 'budget-'));
    try {
      const areas = [...new Set(routes.map((route) => route.area))];
      const extra: Route[] = Array.from({ length: 100 }, (_, index) => {
        const file = join(directory, `route${index}.ts`);
        writeFileSync(file, 'export const handler = async () => ({ statusCode: 204 });\n');
        const method: HttpMethod = index % 2 ? 'POST' : 'GET';
        const handler = relative(join(PROJECT_ROOT, 'functions'), file).replace(/\.ts$/, '');
        const body = method === 'POST' ? 'json' : 'none';
        return route(
          method,
          `/api/synthetic/${index}`,
          handler,
          'signed-in',
          body,
          areas[index % areas.length] as Area,
        );
      });
      const before = resourceCounts().counts;
      const after = resourceCounts({ routes: [...routes, ...extra] }).counts;
      expect(overBudget(after)).toEqual([]);
      // The parent does not grow with the routes; each area by at most 7 resources a route, plus the
      // one role the synthetic routes' access class shares where no function of the area has it yet
      // (functions of the same grants share a role, infra/constructs/access-role.ts).
      expect(after.parent).toBe(before.parent);
      for (const [area, count] of Object.entries(after)) {
        if (area === 'parent') continue;
        expect(count - (before[area] ?? 0)).toBeLessThanOrEqual(Math.ceil(100 / areas.length) * 7 + 1);
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('areas are nested stacks that take from the parent and give nothing back', () => {
  const { stack, templates } = resourceCounts({ alarmEmail: 'ops@example.com' });

  test('one nested stack per area of the route table', () => {
    const areas = [...new Set(routes.map((route) => route.area))];
    expect(stack.areas.map((area) => area.node.id).sort()).toEqual(areas.map(areaStackId).sort());
    const nested = Object.values(templates[0]?.Resources ?? {}).filter(
      (resource) => resource.Type === 'AWS::CloudFormation::Stack',
    );
    expect(nested).toHaveLength(areas.length);
  });

  test('no export, no import, no output of an area read by the parent', () => {
    for (const template of templates) {
      const text = JSON.stringify(template);
      expect(text).not.toContain('Fn::ImportValue');
      expect(text).not.toContain('"Export"');
    }
    for (const area of templates.slice(1)) expect(area.Outputs ?? {}).toEqual({});
  });
});

describe('upgrading from the single-stack layout keeps the data', () => {
  // The stateful resources' logical ids and policies as the single stack had them (main before the
  // areas, `cdk synth`): the same ids mean CloudFormation updates them in place, never replaces them.
  const STATEFUL: Record<string, [type: string, policy: string]> = {
    TableCD117FA1: ['AWS::DynamoDB::Table', 'Retain'],
    ServiceKeys6296815B: ['AWS::SecretsManager::Secret', 'Retain'],
    Files8E6940B8: ['AWS::S3::Bucket', 'Retain'],
    AccessLogs8B620ECA: ['AWS::S3::Bucket', 'Retain'],
    // Failed thumbnail events wait here up to 14 days: the thumbnail function stays in the parent.
    ThumbnailsMakeFailedEvents55E7D0C9: ['AWS::SQS::Queue', 'Delete'],
    OriginSecret5DDC59F1: ['AWS::SecretsManager::Secret', 'Delete'],
    SetupCodeCDE28429: ['AWS::SecretsManager::Secret', 'Delete'],
  };

  test.each([
    ['with the areas', {}],
    ['the first deploy of the upgrade (-c areas=false)', { areas: false }],
  ] as [string, FileServiceStackProps][])(
    '%s, the parent keeps them under the same ids, retained as before',
    (_, props) => {
      const { stack, templates } = resourceCounts(props);
      const parent = templates[0]?.Resources ?? {};
      for (const [id, [type, policy]] of Object.entries(STATEFUL)) {
        expect([id, parent[id]?.Type, parent[id]?.DeletionPolicy, parent[id]?.UpdateReplacePolicy]).toEqual([
          id,
          type,
          policy,
          policy,
        ]);
      }
      for (const area of templates.slice(1)) {
        const types = Object.values(area.Resources).map((resource) => resource.Type);
        expect(types.filter((type) => /DynamoDB::Table|S3::Bucket|Secret$|SQS::Queue/.test(type))).toEqual(
          [],
        );
      }
      if (props.areas === false) {
        expect(stack.areas).toEqual([]);
        const routeKeys = Object.values(parent)
          .filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Route')
          .map((resource) => resource.Properties.RouteKey);
        expect(routeKeys).toEqual(['$default']);
      }
    },
  );
});
