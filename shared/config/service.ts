import { originList, readInteger, required } from '#shared/config/env';

export interface Config {
  tableName: string;
  /** Set only for DynamoDB Local; the cloud uses the regional endpoint. */
  dynamodbEndpoint: string | undefined;
  bcryptCost: number;
  /** Session ids kept per user; the oldest is dropped first. */
  maxSessions: number;
  /** Attempt limits per fixed window (see `throttle/counter.ts`). */
  throttle: {
    windowSeconds: number;
    loginPerUsername: number;
    loginPerAddress: number;
    setupPerAddress: number;
    tokenResetsPerUser: number;
    /** Wrong file-password guesses per file name (unknown names alike). */
    filePasswordPerFile: number;
    /** File-password checks (bcrypt compares, right or wrong, any name) per client address. */
    filePasswordPerAddress: number;
    /** Checks per client address at a name whose own limit is used up (its viewers still get in). */
    filePasswordPerAddressAtThrottledName: number;
    renamesPerUser: number;
    /** Registrations (open or by invite) per client address: each hashes a password. */
    registerPerAddress: number;
  };
  /** Origins (besides the service's own) whose browser pages may write with the session cookie. */
  allowedOrigins: string[];
}

let loaded: Config | undefined;

export function config(): Config {
  loaded ??= {
    tableName: required('TABLE_NAME'),
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
    bcryptCost: readInteger('BCRYPT_COST', 10, 4, 15),
    maxSessions: readInteger('MAX_SESSIONS', 10, 1, 100),
    throttle: {
      windowSeconds: readInteger('THROTTLE_WINDOW_SECONDS', 900, 60, 86400),
      loginPerUsername: readInteger('LOGIN_LIMIT_PER_USERNAME', 10, 1, 10000),
      loginPerAddress: readInteger('LOGIN_LIMIT_PER_ADDRESS', 50, 1, 100000),
      setupPerAddress: readInteger('SETUP_LIMIT_PER_ADDRESS', 10, 1, 10000),
      tokenResetsPerUser: readInteger('TOKEN_RESET_LIMIT_PER_USER', 10, 1, 10000),
      filePasswordPerFile: readInteger('FILE_PASSWORD_LIMIT_PER_FILE', 10, 1, 10000),
      filePasswordPerAddress: readInteger('FILE_PASSWORD_LIMIT_PER_ADDRESS', 30, 1, 100000),
      filePasswordPerAddressAtThrottledName: readInteger('FILE_PASSWORD_LIMIT_AT_THROTTLED_NAME', 3, 1, 100),
      renamesPerUser: readInteger('RENAME_LIMIT_PER_USER', 10, 1, 10000),
      registerPerAddress: readInteger('REGISTER_LIMIT_PER_ADDRESS', 5, 1, 10000),
    },
    allowedOrigins: originList('ALLOWED_ORIGINS'),
  };
  return loaded;
}

/**
 * First-run setup needs a one-time code (`POST /api/setup`): in AWS always (`SETUP_CODE_SECRET_ARN`,
 * a secret the stack generates), locally when `SETUP_CODE` is given (`npm start` asks for none:
 * whoever runs it is its operator). The code itself is a secret: `secrets.ts`.
 */
export const setupCodeRequired = (): boolean =>
  Boolean(process.env.SETUP_CODE || process.env.SETUP_CODE_SECRET_ARN);
