/**
 * The list of CLI commands, one module per concern (data, run, report, export, …). Add a concern's commands here.
 */
import type { CommandModule } from 'yargs';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- yargs command modules differ in their argv types
export const commands: CommandModule<any, any>[] = [];
