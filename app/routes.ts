import type { RouteConfig } from '@remix-run/route-config'
import { flatRoutes } from '@remix-run/fs-routes'

// A route is `routes/<name>.tsx` or `routes/<name>/route.tsx`; tests beside them are not routes.
export default flatRoutes({ ignoredRouteFiles: ['**/*.test.*'] }) satisfies RouteConfig
