import { AsyncLocalStorage } from 'node:async_hooks';
import { BatchGetItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type NativeAttributeValue, unmarshall } from '@aws-sdk/util-dynamodb';
import { tableDefinition } from '#shared/db/table';
import { type RecordedCall, recordSdkCalls } from '../tests/support/sdk-calls.ts';

/**
 * Capacity per partition key: every DynamoDB call the handlers send is recorded with the units
 * DynamoDB reports for the table and each index (`ReturnConsumedCapacity: INDEXES`), and the units
 * are attributed to the partition keys the call touched. For an index that is the partition key of
 * the index: a write's index units go to the index key of the item written, read just before and
 * just after the write (an entry may appear, move or go), through a client of its own.
 */

type Item = Record<string, NativeAttributeValue>;
type Kind = 'read' | 'write';

/** Where units were spent: `table` or an index's name, a partition key value, read or write. */
export interface KeyUnits {
  target: string;
  key: string;
  kind: Kind;
  units: number;
}

/** The items a write touches, as they are (undefined: none there). */
interface Touched {
  tag: string | undefined;
  items: (Item | undefined)[];
}

const READS = /^(Get|BatchGet|Query|Scan|TransactGet)/;
const PARTITION_KEY = tableDefinition.partitionKey.name;
const INDEX_KEYS = new Map(
  tableDefinition.globalIndexes.map((index) => [index.name, index.partitionKey.name]),
);

/** A key or item as plain values, whether the document client or the low-level one sent it. */
function plain(value: unknown): Item {
  const record = (value ?? {}) as Record<string, unknown>;
  const marshalled = Object.values(record).every(
    (inner) =>
      inner !== null && typeof inner === 'object' && !Array.isArray(inner) && Object.keys(inner).length === 1,
  );
  return marshalled && Object.keys(record).length > 0
    ? unmarshall(record as Parameters<typeof unmarshall>[0])
    : (record as Item);
}

/** The keys of the items a write command touches, in order (a transaction's: each of its items). */
function writtenKeys(command: string, input: Record<string, unknown>): Item[] {
  const name = command.replace(/Command$/, '');
  if (name === 'TransactWriteItems') {
    return (input.TransactItems as Record<string, { Key?: unknown; Item?: unknown }>[]).map((entry) => {
      const body = Object.values(entry)[0];
      return keyOf(plain(body?.Key ?? body?.Item));
    });
  }
  if (name === 'BatchWriteItem') {
    return Object.values(
      input.RequestItems as Record<string, Record<string, { Key?: unknown; Item?: unknown }>[]>,
    )
      .flat()
      .map((entry) => {
        const body = Object.values(entry)[0];
        return keyOf(plain(body?.Key ?? body?.Item));
      });
  }
  return [keyOf(plain(input.Key ?? input.Item))];
}

const keyOf = (item: Item): Item => ({
  [PARTITION_KEY]: item[PARTITION_KEY],
  [tableDefinition.sortKey.name]: item[tableDefinition.sortKey.name],
});
const keyString = (item: Item) => JSON.stringify(keyOf(item));

/**
 * Starts recording. `reader` reads the touched items and is not recorded; `run` tags the calls of a request.
 */
export function recordCapacity(reader: DynamoDBClient, tableName: string) {
  const tags = new AsyncLocalStorage<string>();
  const observe = async (command: string, input: Record<string, unknown>): Promise<Touched> => {
    const tag = tags.getStore();
    if (READS.test(command)) return { tag, items: [] };
    const keys = writtenKeys(command, input);
    const unique = [...new Map(keys.map((key) => [keyString(key), key])).values()];
    const result = await reader.send(
      new BatchGetItemCommand({
        RequestItems: {
          [tableName]: {
            Keys: unique.map((key) =>
              Object.fromEntries(Object.entries(key).map(([name, value]) => [name, { S: String(value) }])),
            ),
            ConsistentRead: true,
          },
        },
      }),
    );
    const found = new Map(
      (result.Responses?.[tableName] ?? []).map((item) => {
        const value = unmarshall(item);
        return [keyString(value), value];
      }),
    );
    return { tag, items: keys.map((key) => found.get(keyString(key))) };
  };
  const recorder = recordSdkCalls<Touched>('INDEXES', observe);
  return {
    calls: recorder.calls,
    reset: recorder.reset,
    /** Runs a request so that its calls carry `tag`. */
    run: <T>(tag: string, request: () => Promise<T>) => tags.run(tag, request),
  };
}

interface Capacity {
  TableName?: string;
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/**
 * Splits `units` evenly over `keys`: per item (a key named twice, by two items of a transaction,
 * gets two shares) or per distinct key (an index entry read before and after its write).
 */
function spread(
  target: string,
  keys: unknown[],
  kind: Kind,
  units: number | undefined,
  per: 'item' | 'key' = 'key',
): KeyUnits[] {
  const named = keys.filter((key) => key !== undefined).map(String);
  const shares = per === 'item' ? named : [...new Set(named)];
  if (!units || shares.length === 0) return [];
  return shares.map((key) => ({ target, key, kind, units: units / shares.length }));
}

/** The partition key value a query names in its key condition (`<attribute> = :placeholder`). */
function queriedKey(input: Record<string, unknown>, attribute: string): unknown {
  const condition = String(input.KeyConditionExpression ?? '');
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = plain(input.ExpressionAttributeValues);
  for (const match of condition.matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    const [, name, placeholder] = match as unknown as [string, string, string];
    if ((names[name] ?? name) === attribute) return values[placeholder];
  }
  return undefined;
}

/**
 * The units of one recorded call per partition key. DynamoDB reports a transaction's and a batch's
 * units per table and index, not per item: they are split evenly over the items' partition keys
 * (an upload's transaction: its user partition three times, the name claim once).
 */
export function attribute(call: RecordedCall<Touched>): KeyUnits[] {
  const kind: Kind = READS.test(call.command) ? 'read' : 'write';
  const capacities = [call.consumedCapacity].flat().filter(Boolean) as Capacity[];
  const input = call.input;
  const units: KeyUnits[] = [];
  for (const capacity of capacities) {
    const indexUnits = Object.entries(capacity.GlobalSecondaryIndexes ?? {});
    const tableUnits = capacity.Table?.CapacityUnits ?? (indexUnits.length ? 0 : capacity.CapacityUnits);
    if (kind === 'read') {
      const index = input.IndexName as string | undefined;
      const command = call.command.replace(/Command$/, '');
      if (command === 'Query') {
        const attributeName = index ? (INDEX_KEYS.get(index) as string) : PARTITION_KEY;
        const key = queriedKey(input, attributeName);
        units.push(...spread('table', [queryTableKey(index, key)], kind, tableUnits));
        for (const [name, used] of indexUnits) units.push(...spread(name, [key], kind, used.CapacityUnits));
      } else if (command === 'BatchGetItem') {
        const keys = Object.values(input.RequestItems as Record<string, { Keys: unknown[] }>).flatMap(
          (request) => request.Keys.map((key) => plain(key)[PARTITION_KEY]),
        );
        units.push(...spread('table', keys, kind, tableUnits, 'item'));
      } else {
        units.push(...spread('table', [plain(input.Key)[PARTITION_KEY]], kind, tableUnits));
      }
      continue;
    }
    const keys = writtenKeys(call.command, input);
    const touched = call.observed;
    units.push(
      ...spread(
        'table',
        keys.map((key) => key[PARTITION_KEY]),
        kind,
        tableUnits,
        'item',
      ),
    );
    for (const [index, used] of indexUnits) {
      const attributeName = INDEX_KEYS.get(index) as string;
      const items = [...(touched?.before.items ?? []), ...(touched?.after.items ?? [])];
      units.push(
        ...spread(
          index,
          items.map((item) => item?.[attributeName]),
          kind,
          used.CapacityUnits,
        ),
      );
    }
  }
  return units;
}

/** A query of an index costs the index; DynamoDB Local reports it as the index's units. */
const queryTableKey = (index: string | undefined, key: unknown) => (index === undefined ? key : undefined);
