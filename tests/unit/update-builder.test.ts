import { UpdateBuilder } from '#shared/db/expressions/update';

/**
 * The one update builder (shared/db/expressions/update.ts): every entity's write goes through it, so what it
 * writes is checked here as text; the entities' tests check what DynamoDB Local does with it.
 */

test('names and values are placeholders, a name keeps its placeholder, clauses come in order', () => {
  const update = new UpdateBuilder()
    .set('updatedAt', 'now')
    .remove(['sessions', 'old'])
    .add('attempts', 1)
    .deleteFromSet('oauthLinkedProviders', new Set(['github']))
    .set(['sessions', 'new'], 7);
  expect(update.build()).toEqual({
    UpdateExpression: 'SET #n0 = :v0, #n1.#n5 = :v3 REMOVE #n1.#n2 ADD #n3 :v1 DELETE #n4 :v2',
    ExpressionAttributeNames: {
      '#n0': 'updatedAt',
      '#n1': 'sessions',
      '#n2': 'old',
      '#n3': 'attempts',
      '#n4': 'oauthLinkedProviders',
      '#n5': 'new',
    },
    ExpressionAttributeValues: { ':v0': 'now', ':v1': 1, ':v2': new Set(['github']), ':v3': 7 },
  });
});

test('list elements by index, appends that create the list, first writes, and conditions joined by AND', () => {
  const update = new UpdateBuilder()
    .set(['passkeys', 2, 'name'], 'laptop')
    .append('oauthProviders', [{ provider: 'github' }])
    .setIfAbsent('deletingAt', 'now');
  update.when('attribute_exists(pk)').when(`${update.ref(['passkeys', 2, 'id'])} = ${update.value('id-2')}`);
  const built = update.build();
  expect(built.UpdateExpression).toBe(
    'SET #n0[2].#n1 = :v0, #n2 = list_append(if_not_exists(#n2, :v1), :v2), #n3 = if_not_exists(#n3, :v3)',
  );
  expect(built.ConditionExpression).toBe('attribute_exists(pk) AND #n0[2].#n4 = :v4');
  expect(built.ExpressionAttributeValues).toEqual({
    ':v0': 'laptop',
    ':v1': [],
    ':v2': [{ provider: 'github' }],
    ':v3': 'now',
    ':v4': 'id-2',
  });
});

test('no condition, no ConditionExpression; no value, no ExpressionAttributeValues', () => {
  const built = new UpdateBuilder().remove('totpSecret').build();
  expect(built).toEqual({
    UpdateExpression: 'REMOVE #n0',
    ExpressionAttributeNames: { '#n0': 'totpSecret' },
  });
});

test('a counter added up to a limit: the ADD, on condition that the result stays at most the limit', () => {
  const update = new UpdateBuilder().addUpTo('count', 3, 10).add('writes', 1);
  expect(update.build()).toEqual({
    UpdateExpression: 'ADD #n0 :v1, #n1 :v2',
    ConditionExpression: '(attribute_not_exists(#n0) OR #n0 <= :v0)',
    ExpressionAttributeNames: { '#n0': 'count', '#n1': 'writes' },
    ExpressionAttributeValues: { ':v0': 7, ':v1': 3, ':v2': 1 },
  });
});
