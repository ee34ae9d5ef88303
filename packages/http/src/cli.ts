#!/usr/bin/env node
/** Entry point of the `siteline` command (`bin` of @siteline/http). */
import { runCli } from './cli/main.js';

runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
