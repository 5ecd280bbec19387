import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useRevalidator } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { orderNoSchema } from '#contract/codes.ts'
import { chatApi, messagesApi, notificationsApi } from '#contract/messages.ts'
import { idSchema, pageQuerySchema } from '#contract/users.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { useIsPending } from '#app/components/forms/fields.tsx'
import { Pager } from '#app/components/lists/pager.tsx'
import { ChatThread, MessageField } from '#app/components/messages/chat-thread.tsx'
import { ChatHeading, ChatList, PrivateMessage, TabLinks, useOlderHref } from '#app/components/messages/inbox.tsx'
import { useLiveEvents } from '#app/components/messages/live.ts'
import { MessageText } from '#app/components/messages/message-text.tsx'
import { api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { pageError, rowRefusal } from '#app/.server/failures.ts'
import { ConfirmLogout } from '#app/components/feedback/flash.tsx'
import { pageTitle } from '#app/.server/i18n.ts'
import { CHAT_PAGE_SIZE, chatPages, loadThread, messageText, refusalOf, type SendRefusal, typedText } from '#app/.server/messages.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { formatDateTime } from '#app/utils/format.ts'

const TABS = ['messages', 'notifications', 'chats'] as const
type Tab = (typeof TABS)[number]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const url = new URL(request.url)
  const tab: Tab = (TABS as readonly string[]).includes(url.searchParams.get('tab') ?? '') ? (url.searchParams.get('tab') as Tab) : 'messages'
  const page = pageQuerySchema.safeParse(Object.fromEntries(url.searchParams)).data ?? { pageNum: 1, pageSize: 20 }
  const title = await pageTitle(request, 'menu.myMessage')
  try {
    if (tab === 'messages') return { title, tab, messages: await api(request, messagesApi.list, { token, query: page }) }
    if (tab === 'notifications') return { title, tab, notifications: await api(request, notificationsApi.list, { token, query: page }) }
    const chatId = idSchema.safeParse(url.searchParams.get('chat')).data
    const open = orderNoSchema.safeParse(url.searchParams.get('open')).data
    const chat = chatId ? await loadThread(chatPages(request), (pageNum) => api(request, chatApi.details, { token, query: { chat_id: chatId, pageNum, pageSize: CHAT_PAGE_SIZE } })) : null
    return { title, tab, chats: await api(request, chatApi.list, { token, query: page }), chat, open: open ?? null }
  } catch (e) {
    return pageError(request, e)
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const form = await readForm(request, ['markAllRead', 'open', 'close', 'reply', 'send'])
  const intent = String(form.get('intent') ?? '')
  const url = new URL(request.url)
  const here = url.pathname + url.search
  try {
    if (intent === 'markAllRead') {
      await Promise.all([api(request, messagesApi.markAllRead, { token }), api(request, chatApi.markAllRead, { token, body: {} })])
      return redirectWithToast(request, here, { type: 'success', key: 'messages.markedRead' })
    }
    if (intent === 'open') {
      const orderNo = orderNoSchema.safeParse(form.get('order_no'))
      if (!orderNo.success) return data<SendRefusal>({ intent, error: 'validation.orderNo' }, { status: 400 })
      const chat = await api(request, chatApi.create, { token, body: { order_no: orderNo.data } })
      return redirectWithToast(request, `/user/my-message?tab=chats&chat=${chat.id}`, { type: 'success', key: 'messages.chatOpened' })
    }
    if (intent === 'close') {
      const chatId = idSchema.safeParse(form.get('chat_id'))
      if (!chatId.success) return data<SendRefusal>({ intent, error: 'errors.badRequest' }, { status: 400 })
      await api(request, chatApi.updateStatus, { token, body: { chat_id: chatId.data, status: 'closed' } })
      return redirectWithToast(request, here, { type: 'success', key: 'messages.statusChanged' })
    }
    if (intent === 'reply' || intent === 'send') {
      const text = messageText(form)
      if (!text.ok) return data<SendRefusal>({ intent, error: text.error, content: typedText(form) }, { status: 400 })
      if (intent === 'reply') await api(request, messagesApi.send, { token, body: { content: text.content } })
      else {
        const chatId = z.coerce.number().int().min(1).safeParse(form.get('chat_id'))
        if (!chatId.success) return data<SendRefusal>({ intent, error: 'errors.badRequest' }, { status: 400 })
        await api(request, chatApi.send, { token, body: { chat_id: chatId.data, content: text.content } })
      }
      return redirectWithToast(request, here, { type: 'success', key: 'messages.sent' })
    }
  } catch (e) {
    const content = typedText(form)
    const refused = refusalOf(e)
    if (refused) return data<SendRefusal>({ intent, error: refused, content }, { status: 400 })
    // 500–504: this page again with what was typed, and the dialog that offers to stay on it.
    return rowRefusal(request, e, { intent, content })
  }
  return data<SendRefusal>({ intent, error: 'errors.badRequest' }, { status: 400 })
}

/** SPEC §2 /user/my-message: private messages, system notifications and the caller's after-sales chats. */
export default function MyMessage() {
  const { t } = useTranslation()
  const d = useLoaderData<typeof loader>()
  const last = useActionData<typeof action>()
  const olderHref = useOlderHref()
  const revalidator = useRevalidator()
  const replying = useIsPending({ intent: 'reply' })
  const errorOf = (intent: string) => (last && last.intent === intent ? last.error : undefined)
  /** What was typed into the form of `intent` before it was refused (a page without JavaScript is drawn afresh). */
  const typedFor = (intent: string) => (last && last.intent === intent ? last.content : undefined)
  // A private message or a notification arriving while the list is open: show it.
  useLiveEvents((e) => {
    if ((e.type === 'message' && d.tab === 'messages') || (e.type === 'notification' && d.tab === 'notifications') || (e.type === 'chat' && d.tab === 'chats' && !('chat' in d && d.chat))) revalidator.revalidate()
  })
  const when = (iso: string) => formatDateTime(iso)
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('menu.myMessage')}</Title>
        <Form method="post">
          <Button type="submit" name="intent" value="markAllRead" variant="default" size="xs">
            {t('messages.markAllRead')}
          </Button>
        </Form>
      </Group>
      <TabLinks tabs={TABS} tab={d.tab} label={(k) => t(`messages.tabs.${k}`)} />
      <ConfirmLogout open={Boolean(last?.confirmLogout)} />
      {'messages' in d && d.messages ? (
        <Stack>
          <Form method="post">
            <Stack gap="xs">
              <MessageField label={t('messages.replyLabel')} error={errorOf('reply') ? t(errorOf('reply')!) : undefined} typed={typedFor('reply')} />
              <Group justify="flex-end">
                <Button type="submit" name="intent" value="reply" loading={replying}>
                  {t('messages.send')}
                </Button>
              </Group>
            </Stack>
          </Form>
          {d.messages.list.length === 0 ? <Text c="dimmed">{t('messages.noMessages')}</Text> : null}
          {d.messages.list.map((m) => (
            <PrivateMessage
              key={m.id}
              from={t(m.sender === 'admin' ? 'messages.platform' : 'messages.you')}
              at={when(m.created_at)}
              unread={m.sender === 'admin' && !m.read_at}
              content={m.content}
            />
          ))}
          <Pager total={d.messages.total} pageNum={d.messages.pageNum} pageSize={d.messages.pageSize} />
        </Stack>
      ) : null}
      {'notifications' in d && d.notifications ? (
        <Stack>
          {d.notifications.list.length === 0 ? <Text c="dimmed">{t('messages.noNotifications')}</Text> : null}
          {d.notifications.list.map((n) => (
            // The label colour is the notification's colour (SPEC §3), not words to read: a stripe at its edge.
            <Paper
              key={n.id}
              withBorder
              p="sm"
              data-testid="notification"
              data-label-color={n.label_color}
              style={{ borderInlineStart: `4px solid var(--mantine-color-${n.label_color === 'orangered' ? 'orange' : n.label_color}-6)` }}
            >
              <Group justify="space-between">
                <Group gap="xs">
                  <Text fw={600}>{n.title}</Text>
                  {n.unread ? (
                    <Badge size="xs" color="red">
                      {t('messages.new')}
                    </Badge>
                  ) : null}
                </Group>
                <Text size="xs" c="dimmed">
                  {when(n.updated_at)}
                </Text>
              </Group>
              <Text size="sm" mt={4}>
                <MessageText text={n.content} />
              </Text>
            </Paper>
          ))}
          <Pager total={d.notifications.total} pageNum={d.notifications.pageNum} pageSize={d.notifications.pageSize} />
        </Stack>
      ) : null}
      {'chats' in d && d.chats ? (
        <Stack>
          {d.open ? (
            <Paper withBorder p="sm">
              <Form method="post">
                <input type="hidden" name="order_no" value={d.open} />
                <Group justify="space-between">
                  <Text size="sm">{t('messages.openChatFor', { orderNo: d.open })}</Text>
                  <Button type="submit" name="intent" value="open">
                    {t('messages.openChat')}
                  </Button>
                </Group>
                {errorOf('open') ? (
                  <Text c="red" size="sm" role="alert">
                    {t(errorOf('open')!)}
                  </Text>
                ) : null}
              </Form>
            </Paper>
          ) : null}
          {d.chat ? (
            <Paper withBorder p="md">
              <Stack gap="xs">
                <ChatHeading product={d.chat.order.product_name} />
                <Text size="sm" c="dimmed">
                  {t('messages.orderNo')}: {d.chat.order.orderNo}
                </Text>
                <ChatThread
                  chat={d.chat}
                  reader="user"
                  olderHref={olderHref}
                  error={errorOf('send')}
                  typed={typedFor('send')}
                  actions={
                    d.chat.status === 'closed' ? null : (
                      <Form method="post">
                        <input type="hidden" name="chat_id" value={d.chat.id} />
                        <Button type="submit" name="intent" value="close" variant="default" size="xs">
                          {t('messages.closeChat')}
                        </Button>
                      </Form>
                    )
                  }
                />
              </Stack>
            </Paper>
          ) : (
            <ChatList chats={d.chats} empty={t('messages.noChats')} />
          )}
        </Stack>
      ) : null}
    </Stack>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
