/**
 * The list of CLI commands, one module per concern (data, run, report, export, …). Add a concern's commands here.
 */
import type { CommandModule } from 'yargs';
import { classifierCommand, classifyCommand } from './classify/commands.ts';
import { dataCommand } from './data/commands.ts';
import { runCommand } from './run/commands.ts';
import { reportCommand } from './report/commands.ts';
import { exportCommand } from './store/commands.ts';
import { calibrateCommand } from './routing/commands.ts';

/** Command modules differ in their argument types; yargs only needs them as modules. */
type AnyCommand = CommandModule<object, never>;

export const commands: AnyCommand[] = [runCommand as unknown as AnyCommand, dataCommand as unknown as AnyCommand,
  classifyCommand as unknown as AnyCommand, classifierCommand as unknown as AnyCommand,
  reportCommand as unknown as AnyCommand, exportCommand as unknown as AnyCommand,
  calibrateCommand as unknown as AnyCommand];
