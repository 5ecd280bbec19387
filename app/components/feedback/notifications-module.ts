// The notifications host alone, behind a dynamic import (notifications-host.tsx).
export { Notifications } from '@mantine/notifications'
