#!/usr/bin/env node
// The `siteline` command. This file is committed, not built: npm links a workspace's bin
// before it builds `dist/`, and a bin that does not exist yet is not linked at all.
import '../dist/cli.js';
