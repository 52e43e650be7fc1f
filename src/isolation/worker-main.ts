// The script of a repository worker thread (worker-entry.ts names it for the pool).

import { serveRepositoryWork } from "./serve-work.ts";

serveRepositoryWork();
