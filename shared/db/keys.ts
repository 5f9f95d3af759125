/** Key builders: the only place that knows how entities map onto the generic pk/sk/gsi attributes. */
export const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'USER' });
export const usernameKey = (username: string) => ({
  pk: `USERNAME#${username.toLowerCase()}`,
  sk: 'USERNAME',
});
export const avatarChunkKey = (userId: string, index: number) => ({
  pk: `USER#${userId}`,
  sk: `AVATAR#${index}`,
});
/** Exists once the first user has been created; its conditional put decides the setup race. */
export const setupKey = { pk: 'SETUP', sk: 'SETUP' };
export const USERS_INDEX = 'gsi1';
export const USERS_PARTITION = 'USERS';
