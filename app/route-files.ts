/**
 * Files in app/routes/ that are not routes: the tests beside their route, and stylesheets. Read by
 * app/routes.ts (with the v3_routeConfig flag the Vite plugin's own `ignoredRouteFiles` is not used,
 * docs/decisions/109-remix-config-and-remix-serve.md) and by the tests that build the route tree.
 */
export const ignoredRouteFiles = ['**/*.test.*', '**/*.css']
