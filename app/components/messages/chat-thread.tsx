import { Badge, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core'
import { Form, Link, useRevalidator } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { CHAT_STATUS_VIEW, type ChatDetails, MESSAGE_MAX, type Sender } from '#contract/messages.ts'
import { useIsPending } from '#app/components/forms/fields.tsx'
import { useLiveEvents } from './live.ts'
import { MessageText } from './message-text.tsx'
import { formatDateTime } from '#app/utils/format.ts'

export function ChatStatusBadge({ status }: { status: ChatDetails['status'] }) {
  const { t } = useTranslation()
  const view = CHAT_STATUS_VIEW[status]
  return (
    <Badge color={view.color} variant="light" data-testid="chat-status">
      {t(view.label)}
    </Badge>
  )
}

/** One line: the reader's own on the right, the other side's on the left. */
function Line({ mine, sender, content, at }: { mine: boolean; sender: Sender; content: string; at: string }) {
  const { t } = useTranslation()
  return (
    <Group justify={mine ? 'flex-end' : 'flex-start'}>
      <Paper withBorder p="xs" maw="80%" bg={mine ? 'var(--mantine-color-blue-light)' : undefined} data-testid="chat-line">
        <Text size="xs" c="dimmed">
          {t(sender === 'admin' ? 'messages.platform' : 'messages.buyer')} · {formatDateTime(at)}
        </Text>
        <Text size="sm">
          <MessageText text={content} />
        </Text>
      </Paper>
    </Group>
  )
}

/**
 * A chat's lines (oldest at the top, "load older" prepends a page), and the form to write. With
 * JavaScript a live event about this chat reloads the page's data; without, a reload shows it.
 */
/** A message form's text (`content`); `typed`: what it held when the form was refused, given back. */
export function MessageField({ label, error, typed }: { label: string; error?: string; typed?: string }) {
  return <Textarea name="content" label={label} autosize minRows={2} maxLength={MESSAGE_MAX} defaultValue={typed} error={error} required />
}

/** A chat's lines and its reply form; `typed` is what the form held when its last send was refused. */
export function ChatThread({
  chat,
  reader,
  olderHref,
  error,
  typed,
  hidden,
  actions,
}: {
  chat: ChatDetails
  reader: Sender
  olderHref: string
  error?: string
  typed?: string
  hidden?: ReactNode
  actions?: ReactNode
}) {
  const { t } = useTranslation()
  const revalidator = useRevalidator()
  const sending = useIsPending({ intent: 'send' })
  useLiveEvents((e) => {
    if ((e.type === 'chat' || e.type === 'chatStatus') && e.chat_id === chat.id) revalidator.revalidate()
  })
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <ChatStatusBadge status={chat.status} />
        {actions}
      </Group>
      {chat.is_end ? null : (
        <Button component={Link} to={olderHref} variant="subtle" size="xs" preventScrollReset replace>
          {t('messages.loadOlder')}
        </Button>
      )}
      <Stack gap="xs" aria-live="polite" data-testid="chat-lines">
        {chat.list.length === 0 ? <Text c="dimmed">{t('messages.noLines')}</Text> : null}
        {chat.list.map((m) => (
          <Line key={m.id} mine={m.sender === reader} sender={m.sender} content={m.content} at={m.created_at} />
        ))}
      </Stack>
      {chat.status === 'closed' ? (
        <Text c="dimmed" size="sm">
          {t('messages.chatIsClosed')}
        </Text>
      ) : (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="chat_id" value={chat.id} />
          {hidden}
          <Stack gap="xs">
            <MessageField label={t('messages.yourMessage')} error={error ? t(error) : undefined} typed={typed} />
            <Group justify="flex-end">
              <Button type="submit" name="intent" value="send" loading={sending}>
                {t('messages.send')}
              </Button>
            </Group>
          </Stack>
        </Form>
      )}
    </Stack>
  )
}
