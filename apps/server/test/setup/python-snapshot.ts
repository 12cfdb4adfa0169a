import { pythonSnapshot } from '../../src/modules/bots/sandbox/python-snapshot';

/**
 * Makes Pyodide's memory snapshot once before any test file starts, instead of letting the first
 * files that run Python each make it at once.
 */
export default async function setup(): Promise<void> {
  await pythonSnapshot();
}
