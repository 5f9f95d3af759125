import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../infra/local/dynamodb.ts';
import { PROJECT_ROOT } from '../../infra/project-root.ts';

/**
 * Node's arguments for `npm start`, read from package.json's script: the tests and the benchmark
 * start the runner exactly as users do (flags included), without npm's own process in between.
 */
export function npmStartArguments(): string[] {
  const packageJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [command, ...args] = packageJson.scripts.start.split(/\s+/);
  if (command !== 'node') throw new Error(`npm start runs ${command}, not node`);
  return args;
}

/** `npm start` for real (its launcher bundles start.ts and runs it in plain Node): a child process serving HTTP on a port, DynamoDB Local persisting in DATA_DIR. */
export interface Runner {
  url: string;
  dynamoEndpoint: string;
  output: () => string;
  /** Resolves once the output matches (log lines are written just after the response is sent). */
  waitFor: (pattern: RegExp) => Promise<void>;
  child: ChildProcess;
}

export async function startRunner(dataDir: string, extraEnv: Record<string, string> = {}): Promise<Runner> {
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: dataDir,
    PORT: String(port),
    ...extraEnv,
  };
  const child = spawn(process.execPath, npmStartArguments(), {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waitFor = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      if (pattern.test(output)) return resolve();
      const check = () => {
        if (!pattern.test(output)) return;
        child.stdout.off('data', check);
        resolve();
      };
      child.stdout.on('data', check);
    });
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DynamoDB Local at (http:\/\/[\d.:]+)\)/.exec(output);
      if (match) resolve(match[1] as string);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`runner exited with ${code}:\n${output}`)));
  });
  const dynamoEndpoint = await ready;
  return { url: `http://127.0.0.1:${port}`, dynamoEndpoint, output: () => output, waitFor, child };
}

export function stopRunner(runner: Runner, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((resolve) => {
    if (runner.child.exitCode !== null) return resolve(runner.child.exitCode);
    runner.child.once('exit', (code) => resolve(code));
    runner.child.kill(signal);
  });
}
