#!/usr/bin/env node
/** Entry point of the `siteline` command (`bin` of @siteline/http). */
import { runCli } from './cli/main.js';
import { nodeVersionProblem } from './cli/node-version.js';

const tooOld = nodeVersionProblem(process.version);
if (tooOld) {
  process.stderr.write(`siteline: ${tooOld}\n`);
  process.exitCode = 1;
} else {
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
