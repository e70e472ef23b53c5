// What the inbox's commands write to and the error of a bad command line: a leaf module, so the
// commands in commands/ and the dispatcher in cli.ts share them without a cycle.

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** A command line the CLI cannot run: printed with the usage, exit code 2. */
export class UsageError extends Error {}
