import { NestedStack } from 'aws-cdk-lib';
import { type HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { type Area, methodsOf } from '#shared/routes/route';
import { areaFailureAlarm } from './alarms.ts';
import type { AccessRole } from './constructs/access-role.ts';
import type { ServiceFunction } from './constructs/service-function.ts';
import {
  answersRequests,
  createFunctions,
  type FunctionSettings,
  type RequestSettings,
} from './function-set.ts';
import type { FunctionSpec } from './functions.ts';

export interface AreaStackProps {
  area: Area;
  /** The area's functions, from the route table (each with its routes). */
  specs: readonly FunctionSpec[];
  api: HttpApi;
  settings: FunctionSettings;
  requests: RequestSettings;
  /** The parent's alarm topic; absent: no alarm (`-c functionAlarms=false`). */
  alarmTopic?: ITopic;
}

/** `account` → `AccountArea`: the nested stack's construct id. */
export const areaStackId = (area: string) => `${area.charAt(0).toUpperCase()}${area.slice(1)}Area`;

/**
 * One area of the service (docs/scale.md): its functions with their log groups and roles, their
 * routes (and HEAD beside every GET), integrations and invoke permissions on the parent's API, and
 * one alarm over all its functions. Everything it names of the parent (table, bucket, secrets, API,
 * topic, distribution) comes in as nested stack parameters; nothing goes back up, so an area can
 * change or go without an export holding it.
 */
export class AreaStack extends NestedStack {
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  readonly roles: readonly AccessRole[];

  constructor(scope: Construct, props: AreaStackProps) {
    super(scope, areaStackId(props.area), {
      description: `File service: the ${props.area} area's functions and routes`,
    });
    const { functions, roles } = createFunctions(this, props.specs, props.settings);
    this.functions = functions;
    this.roles = [...roles.values()];
    for (const spec of props.specs) {
      const fn = functions.get(spec.handler) as ServiceFunction;
      answersRequests(fn, spec, props.settings, props.requests);
      // One invoke permission per function for this API (not one per route: a resource each).
      const integration = new HttpLambdaIntegration(`${spec.id}Integration`, fn.function, {
        scopePermissionToRoute: false,
      });
      for (const route of spec.routes) {
        for (const method of methodsOf(route)) {
          new HttpRoute(this, `${method}${route.path}`, {
            httpApi: props.api,
            routeKey: HttpRouteKey.with(route.path, HttpMethod[method]),
            integration,
          });
        }
      }
    }
    if (props.alarmTopic)
      areaFailureAlarm(this, {
        id: `${this.node.id}FailedInvocations`,
        area: props.area,
        namespace: props.settings.metricsNamespace,
        topic: props.alarmTopic,
        functions: functions.values(),
      });
  }
}
