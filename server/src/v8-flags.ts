import v8 from 'node:v8'

/**
 * V8 flags of the API process, set as it starts: `main.ts` imports this module first, so the flags are
 * in place before the API's own modules run and before any request (the packages it imports are
 * evaluated before it, as ESM does; only their load-time objects are allocated under V8's defaults).
 *
 * `--no-allocation-site-pretenuring` (decision 162): V8 watches how many objects of each allocation
 * site survive a young-generation collection, and from one with a high survival rate allocates straight
 * into the old generation from then on. A request's objects live for a few milliseconds, yet in about one
 * API start in four on PGlite (never in eight on PostgreSQL; PGlite runs its queries on this thread, the
 * exact trigger was not pinned down) the sites of Node's and Fastify's request path were moved there for
 * good: every later request's headers, buffers and stream state went to the old generation, to be freed
 * only by mark-compacts, and `GET /api/share` cost 70–100% more CPU per answer for the process's life.
 */
const API_V8_FLAGS = ['--no-allocation-site-pretenuring'] as const

for (const flag of API_V8_FLAGS) v8.setFlagsFromString(flag)
