import { parseArgs } from 'node:util';

/**
 * The command line. Secrets may come from the environment instead of arguments (arguments show in
 * `ps` and shell history): ZIPLINE_TOKEN for --token, IMPORT_TARGET_PASSWORD for the target password
 * (else it is asked on the terminal, not echoed).
 */
export const USAGE = `npm run import:zipline -- --from <zipline url> --token <SUPERADMIN token> [options]

Source (one of):
  --from <url> --token <token>   a Zipline 4.x instance, read through its API (token: ZIPLINE_TOKEN)
  --export <file>                Zipline's server export (v4 JSON) for the metadata, with the bytes
                                 from --uploads <dir> (its local datasource folder) or --from/--token
Target:
  --target <url>                 this service (default http://127.0.0.1:3000, the local runner)
  --target-user <name>           a SUPERADMIN of the target (password: IMPORT_TARGET_PASSWORD or asked)
  --totp <code>                  the target account's TOTP code, if it has TOTP on
Run:
  --dry-run                      read the source and report what would happen; write nothing
  --adopt-existing               a username already taken on the target is that same person
  --concurrency <1-4>            files in flight (default 4)
  --verify [links|bytes]         afterwards check every link (HEAD, no view counted) or byte for byte
  --report <file>                also write the report as JSON`;

export interface Options {
  from?: string;
  token?: string;
  exportFile?: string;
  uploads?: string;
  target: string;
  targetUser?: string;
  totp?: string;
  dryRun: boolean;
  adoptExisting: boolean;
  concurrency: number;
  verify?: 'links' | 'bytes';
  reportFile?: string;
}

export class UsageError extends Error {}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  const token = values.token ?? env.ZIPLINE_TOKEN;
  if (!values.from && !values.export) throw new UsageError('give --from <zipline url> or --export <file>');
  if (values.from && !token)
    throw new UsageError('--from needs --token (or ZIPLINE_TOKEN): a SUPERADMIN token of the instance');
  if (values.export && !values.uploads && !values.from)
    throw new UsageError('--export needs the bytes: --uploads <dir> or --from <url>');
  if (!values['dry-run'] && !values['target-user'])
    throw new UsageError('--target-user <name> (a SUPERADMIN of the target) is required');
  const concurrency = Number(values.concurrency ?? 4);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 4)
    throw new UsageError('--concurrency is 1 to 4');
  const verify = values.verify === undefined ? undefined : values.verify === '' ? 'links' : values.verify;
  if (verify !== undefined && verify !== 'links' && verify !== 'bytes')
    throw new UsageError('--verify is links or bytes');
  for (const url of [values.from, values.target]) {
    if (url && !URL.canParse(url)) throw new UsageError(`not a URL: ${url}`);
  }
  return {
    ...(values.from ? { from: values.from } : {}),
    ...(token ? { token } : {}),
    ...(values.export ? { exportFile: values.export } : {}),
    ...(values.uploads ? { uploads: values.uploads } : {}),
    target: values.target ?? 'http://127.0.0.1:3000',
    ...(values['target-user'] ? { targetUser: values['target-user'] } : {}),
    ...(values.totp ? { totp: values.totp } : {}),
    dryRun: values['dry-run'] === true,
    adoptExisting: values['adopt-existing'] === true,
    concurrency,
    ...(verify ? { verify } : {}),
    ...(values.report ? { reportFile: values.report } : {}),
  };
}

function parse(argv: string[]) {
  // `--verify` alone means links: a following option or nothing is not its value.
  const args = argv.flatMap((arg, index) =>
    arg === '--verify' && (argv[index + 1] ?? '--').startsWith('--') ? ['--verify='] : [arg],
  );
  return parseArgs({
    args,
    strict: true,
    options: {
      from: { type: 'string' },
      token: { type: 'string' },
      export: { type: 'string' },
      uploads: { type: 'string' },
      target: { type: 'string' },
      'target-user': { type: 'string' },
      totp: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'adopt-existing': { type: 'boolean' },
      concurrency: { type: 'string' },
      verify: { type: 'string' },
      report: { type: 'string' },
    },
  });
}
