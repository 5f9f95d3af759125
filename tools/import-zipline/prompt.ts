import { createInterface } from 'node:readline';

/** Asks on the terminal without echoing what is typed (a password, a TOTP code); fails off a terminal. */
export function askHidden(question: string): Promise<string> {
  if (!process.stdin.isTTY) {
    return Promise.reject(
      new Error(`${question.trim()} needed: set IMPORT_TARGET_PASSWORD (stdin is not a terminal)`),
    );
  }
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const output = lines as unknown as { _writeToOutput: (text: string) => void };
  process.stderr.write(question);
  output._writeToOutput = () => {};
  return new Promise((resolve) => {
    lines.question('', (answer) => {
      lines.close();
      process.stderr.write('\n');
      resolve(answer);
    });
  });
}
