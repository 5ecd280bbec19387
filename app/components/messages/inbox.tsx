// The parts the user's inbox (/user/my-message) and the admin's (/system/message-manage) share: the tab
// links, a private message, the heading of an open chat and the link to its older lines.
import { Badge, Button, Group, Paper, Table, Text, Title } from '@mantine/core'
import { Link, useLocation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { Page } from '#contract/envelope.ts'
import type { Chat } from '#contract/messages.ts'
import { Pager } from '#app/components/lists/pager.tsx'
import { formatDateTime } from '#app/utils/format.ts'
import { ChatStatusBadge } from './chat-thread.tsx'
import { MessageText } from './message-text.tsx'

/** The page's tabs as links (`?tab=…`), so each tab is a URL and works without JavaScript. */
export function TabLinks<T extends string>({ tabs, tab, label }: { tabs: readonly T[]; tab: T; label: (tab: T) => string }) {
  return (
    <Group gap="xs" role="tablist">
      {tabs.map((k) => (
        <Button key={k} component={Link} to={`?tab=${k}`} variant={k === tab ? 'filled' : 'light'} role="tab" aria-selected={k === tab} size="xs">
          {label(k)}
        </Button>
      ))}
    </Group>
  )
}

/** One private message: who wrote it and when, "new" while the reader has not read it, what it says. */
export function PrivateMessage({ from, at, unread, content, action }: { from: ReactNode; at: string; unread: boolean; content: string; action?: ReactNode }) {
  const { t } = useTranslation()
  return (
    <Paper withBorder p="sm" data-testid="private-message">
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {from} · {at}
        </Text>
        <Group gap="xs">
          {unread ? (
            <Badge size="xs" color="red">
              {t('messages.new')}
            </Badge>
          ) : null}
          {action}
        </Group>
      </Group>
      <Text size="sm">
        <MessageText text={content} />
      </Text>
    </Paper>
  )
}

/** An open chat's title (the product it is about) with the way back to the list of chats. */
export function ChatHeading({ product }: { product: string }) {
  const { t } = useTranslation()
  return (
    <Group justify="space-between">
      <Title order={3}>{t('messages.chatAbout', { product })}</Title>
      <Button component={Link} to="?tab=chats" variant="subtle" size="xs">
        {t('messages.backToChats')}
      </Button>
    </Group>
  )
}

/** This page with one more page of the open chat's older lines (`pages`). */
export function useOlderHref(): string {
  const location = useLocation()
  const p = new URLSearchParams(location.search)
  p.set('pages', String(Number(p.get('pages') ?? '1') + 1))
  return `?${p}`
}

/**
 * A page of after-sales chats, newest activity first, each opening its thread (`?tab=chats&chat=ID`).
 * The admin sees every buyer's, with the chat number and the buyer; the user sees their own.
 */
export function ChatList({ chats, admin = false, empty }: { chats: Page<Chat>; admin?: boolean; empty: string }) {
  const { t } = useTranslation()
  return (
    <>
      <Table.ScrollContainer minWidth={admin ? 800 : 560}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              {admin ? <Table.Th>{t('messages.field.id')}</Table.Th> : null}
              {admin ? <Table.Th>{t('messages.field.buyer')}</Table.Th> : null}
              <Table.Th>{t('messages.field.product')}</Table.Th>
              <Table.Th>{t('messages.field.status')}</Table.Th>
              <Table.Th>{t('messages.field.lastMessage')}</Table.Th>
              <Table.Th>{t('messages.field.unread')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {chats.list.map((c) => (
              <Table.Tr key={c.id} data-testid="chat-row">
                {admin ? <Table.Td>{c.id}</Table.Td> : null}
                {admin ? <Table.Td>{c.username ?? t('messages.visitor')}</Table.Td> : null}
                <Table.Td>{c.order.product_name}</Table.Td>
                <Table.Td>
                  <ChatStatusBadge status={c.status} />
                </Table.Td>
                <Table.Td>{formatDateTime(c.last_message_at)}</Table.Td>
                <Table.Td>{admin && c.unread ? <Badge color="red">{c.unread}</Badge> : c.unread}</Table.Td>
                <Table.Td>
                  <Button component={Link} to={`?tab=chats&chat=${c.id}`} size="xs" variant="light">
                    {t(admin ? 'messages.answer' : 'messages.openChat')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {chats.list.length === 0 ? <Text c="dimmed">{empty}</Text> : null}
      <Pager total={chats.total} pageNum={chats.pageNum} pageSize={chats.pageSize} />
    </>
  )
}
