import { useNotifications } from '@mantine/notifications'
import { type ComponentType, useEffect, useState } from 'react'

type Host = ComponentType<{ position: 'top-right'; classNames: { root: string } }>
let loaded: Host | null = null

/**
 * Mantine's `<Notifications>` (its portal, transitions and the notification card), fetched when the
 * first notification is shown rather than with every page (issue 11 JS budget, decision 099). The
 * store `notifications.show()` writes to is small and always here; the host, once mounted, renders what
 * the store holds, so a notification shown before it arrived is not lost. Nothing renders on the server.
 */
export function NotificationsHost() {
  const wanted = useNotifications().notifications.length > 0
  const [Host, setHost] = useState<Host | null>(() => loaded)
  useEffect(() => {
    if (!wanted || Host) return
    import('./notifications-module.ts').then((m) => setHost(() => (loaded = m.Notifications as Host)))
  }, [wanted, Host])
  return Host ? <Host position="top-right" classNames={{ root: 'ps-notifications' }} /> : null
}
