import { Badge, UnstyledButton, VisuallyHidden } from '@mantine/core'
import { Link, useFetcher, useRouteLoaderData } from '@remix-run/react'
import { IconMail } from './icons.tsx'
import { useTranslation } from 'react-i18next'
import type { Unread } from '#contract/messages.ts'
import { useLiveEvents } from './live.ts'

/**
 * The navbar's unread count (issue 10): private messages, notifications and chat lines not yet read,
 * rendered by the server with the layout and, with JavaScript, refreshed on every live event.
 */
export function UnreadBadge() {
  const { t } = useTranslation()
  const layout = useRouteLoaderData<{ unread?: Unread | null }>('routes/_app')
  const fetcher = useFetcher<Unread>()
  useLiveEvents(() => fetcher.load('/events/unread'))
  const unread = fetcher.data ?? layout?.unread
  if (!unread) return null
  const total = unread.messages + unread.notifications + unread.chats
  const label = t('messages.unreadLabel', { count: total })
  return (
    <UnstyledButton component={Link} to="/user/my-message" title={label} data-testid="unread-badge" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      {/* Text, not only an aria-label: a text browser shows it (issue 23); the badge repeats the count. */}
      <VisuallyHidden>{label}</VisuallyHidden>
      <IconMail />
      {total > 0 ? (
        <Badge size="sm" color="red" circle={total < 10} data-testid="unread-count" aria-hidden="true">
          {total > 99 ? '99+' : total}
        </Badge>
      ) : null}
    </UnstyledButton>
  )
}
