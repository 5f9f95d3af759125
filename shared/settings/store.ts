import { getItem } from '#shared/db/client';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { settingsKey } from '#shared/db/keys/instance';
import { updateItem } from '#shared/db/table-calls';
import { type ServerSettings, settingsOf } from '#shared/settings/model';

/** The settings as stored, with the number of changes made to them so far. */
export interface StoredSettings {
  settings: ServerSettings;
  version: number;
}

const storedOf = (item: Record<string, unknown> | undefined): StoredSettings => ({
  settings: settingsOf(item),
  version: typeof item?.version === 'number' ? item.version : 0,
});

export async function readSettings(options: { consistent?: boolean } = {}): Promise<StoredSettings> {
  return storedOf(await getItem(settingsKey, options));
}

/** A change: a setting's new value, or null to return to its default. */
export type SettingsChange = { [name in keyof ServerSettings]?: ServerSettings[name] | null };

/**
 * One UpdateItem: each named setting is its own attribute, set (or removed: back to its default) in
 * place, so two administrators' concurrent changes of different settings both stay (nothing is read
 * and written back), and of the same setting the later wins whole. `version` counts the changes.
 */
export async function changeSettings(change: SettingsChange): Promise<StoredSettings> {
  const update = new UpdateBuilder();
  for (const [name, value] of Object.entries(change)) {
    if (value !== undefined) update.setOrRemove(name, value);
  }
  update.add('version', 1).set('updatedAt', new Date().toISOString());
  const result = await updateItem(settingsKey, { ...update.build(), ReturnValues: 'ALL_NEW' });
  return storedOf(result.Attributes);
}
