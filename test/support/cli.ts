/** Runs the CLI in-process and captures its output. */
import { run } from '../../src/cli/main.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(argv: string[], options: { stdin?: string; cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => options.stdin ?? '',
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? {},
    isTTY: false,
  });
  return { code, stdout, stderr };
}
