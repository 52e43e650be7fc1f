#!/usr/bin/env node
// Loupe runs its TypeScript sources directly with Node 24's type stripping (no build step).
import "../src/cli.ts";
