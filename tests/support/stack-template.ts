import { type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { FileServiceStack } from '../../infra/stack.ts';

type Json = unknown;
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation templates are free-form JSON.
type TemplateJson = { Resources: Record<string, any>; [section: string]: any };

/** `{"Ref": parameter}` replaced by what the parent passes for it, everywhere in `value`. */
function substitute(value: Json, parameters: Record<string, Json>): Json {
  if (Array.isArray(value)) return value.map((item) => substitute(item, parameters));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    const [key, target] = entries[0] ?? [];
    if (entries.length === 1 && key === 'Ref' && typeof target === 'string' && target in parameters)
      return parameters[target];
    return Object.fromEntries(entries.map(([name, inner]) => [name, substitute(inner, parameters)]));
  }
  return value;
}

/** The parent's template and each area's (nested stack) template as synthesized. */
export function stackTemplates(stack: FileServiceStack): { parent: TemplateJson; areas: TemplateJson[] } {
  return {
    parent: Template.fromStack(stack).toJSON() as TemplateJson,
    areas: stack.areas.map((area) => Template.fromStack(area).toJSON() as TemplateJson),
  };
}

/**
 * The parent stack and its areas as one template, as the single stack was before the areas: every
 * nested stack's resources beside the parent's, their parameters replaced by the parent's values
 * (a table ARN is the table's `Fn::GetAtt` again). Logical ids are unique across the stacks (a
 * collision fails here), so what a test asserts of the service holds whichever stack has it.
 */
export function flatTemplate(stack: FileServiceStack): Template {
  const { parent, areas } = stackTemplates(stack);
  const resources = { ...parent.Resources };
  stack.areas.forEach((area, index) => {
    const nestedId = stack.getLogicalId(area.nestedStackResource as CfnElement);
    const parameters = resources[nestedId]?.Properties?.Parameters ?? {};
    // What the nested stack waits for, each of its resources waits for.
    const after: string[] = [resources[nestedId]?.DependsOn ?? []].flat();
    for (const [id, resource] of Object.entries(areas[index]?.Resources ?? {})) {
      if (id in resources) throw new Error(`logical id ${id} is in two stacks`);
      const dependsOn = [...[resource.DependsOn ?? []].flat(), ...after];
      resources[id] = {
        ...(substitute(resource, parameters) as object),
        ...(dependsOn.length ? { DependsOn: dependsOn } : {}),
      };
    }
  });
  return Template.fromJSON({ ...parent, Resources: resources });
}

/** A construct's logical id in its own stack (the parent's or an area's). */
export const logicalIdOf = (construct: IConstruct): string =>
  Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
