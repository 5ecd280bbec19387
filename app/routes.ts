import type { RouteConfig } from '@remix-run/route-config'
import { flatRoutes } from '@remix-run/fs-routes'
import { ignoredRouteFiles } from './route-files.ts'

// A route is `routes/<name>.tsx` or `routes/<name>/route.tsx`; tests and stylesheets beside them are not routes.
export default flatRoutes({ ignoredRouteFiles }) satisfies RouteConfig
