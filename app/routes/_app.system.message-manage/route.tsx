import { Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useLocation, useRevalidator } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { adminChatListQuerySchema, CHAT_STATUSES, chatApi, chatStatusSchema, type ChatDetails, messagesApi } from '#contract/messages.ts'
import { ordersApi } from '#contract/orders.ts'
import { idSchema, pageQuerySchema } from '#contract/users.ts'
import { ConfirmDialog } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { useIsPending } from '#app/components/forms/fields.tsx'
import { Pager } from '#app/components/lists/pager.tsx'
import { ChatThread, MessageField } from '#app/components/messages/chat-thread.tsx'
import { ChatHeading, ChatList, PrivateMessage, TabLinks, useOlderHref } from '#app/components/messages/inbox.tsx'
import { useLiveEvents } from '#app/components/messages/live.ts'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError, rowRefusal } from '#app/.server/failures.ts'
import { ConfirmLogout } from '#app/components/feedback/flash.tsx'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery } from '#app/.server/lists.ts'
import { CHAT_PAGE_SIZE, chatPages, loadThread, messageText, refusalOf, type SendRefusal, typedText } from '#app/.server/messages.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { formatDateTime } from '#app/utils/format.ts'

/**
 * SPEC §2 /system/message-manage: private messages to users, and the after-sales chats as a second tab
 * (decision 083: one place for every conversation with users; SPEC §2 names no chat page of its own).
 */
const TABS = ['messages', 'chats'] as const
type Tab = (typeof TABS)[number]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const url = new URL(request.url)
  const tab: Tab = url.searchParams.get('tab') === 'chats' ? 'chats' : 'messages'
  const title = await pageTitle(request, 'menu.messageManage')
  try {
    if (tab === 'messages') {
      const page = pageQuerySchema.safeParse(Object.fromEntries(url.searchParams)).data ?? { pageNum: 1, pageSize: 20 }
      const userId = idSchema.safeParse(url.searchParams.get('user')).data
      const list = await api(request, messagesApi.adminList, { token, query: { ...page, user_id: userId } })
      return { title, tab, messages: list, conversationWith: userId ? (list.list[0]?.username ?? null) : null, userId: userId ?? null }
    }
    const chatId = idSchema.safeParse(url.searchParams.get('chat')).data
    if (chatId) {
      const chat = await loadThread(chatPages(request), (pageNum) => api(request, chatApi.adminDetails, { token, query: { chat_id: chatId, pageNum, pageSize: CHAT_PAGE_SIZE } }))
      return { title, tab, chat, refund: url.searchParams.get('refund') === '1' && chat.order.refundable }
    }
    const query = listQuery(request, adminChatListQuerySchema, ['status', 'keyword'])
    return { title, tab, chats: await api(request, chatApi.adminList, { token, query }) }
  } catch (e) {
    return pageError(request, e)
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

type Refusal = SendRefusal & { field?: 'username' | 'content' }

export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const form = await readForm(request, ['message', 'send', 'status', 'refund'])
  const intent = String(form.get('intent') ?? '')
  const url = new URL(request.url)
  url.searchParams.delete('refund')
  const here = url.pathname + url.search
  const chatId = idSchema.safeParse(form.get('chat_id')).data
  try {
    if (intent === 'message') {
      const text = messageText(form)
      const username = String(form.get('username') ?? '').trim()
      if (!username) return data<Refusal>({ intent, field: 'username', error: 'messages.usernameRequired', content: typedText(form) }, { status: 400 })
      if (!text.ok) return data<Refusal>({ intent, field: 'content', error: text.error, content: typedText(form) }, { status: 400 })
      const sent = await api(request, messagesApi.adminSend, { token, body: { username, content: text.content } })
      return redirectWithToast(request, `/system/message-manage?user=${sent.user_id}`, { type: 'success', key: 'messages.sent' })
    }
    if (!chatId) return data<Refusal>({ intent, error: 'errors.badRequest' }, { status: 400 })
    if (intent === 'send') {
      const text = messageText(form)
      if (!text.ok) return data<Refusal>({ intent, error: text.error, content: typedText(form) }, { status: 400 })
      await api(request, chatApi.send, { token, body: { chat_id: chatId, content: text.content } })
      return redirectWithToast(request, here, { type: 'success', key: 'messages.sent' })
    }
    if (intent === 'status') {
      const status = chatStatusSchema.safeParse(form.get('status'))
      if (!status.success) return data<Refusal>({ intent, error: 'messages.statusInvalid' }, { status: 400 })
      await api(request, chatApi.updateStatus, { token, body: { chat_id: chatId, status: status.data } })
      return redirectWithToast(request, here, { type: 'success', key: 'messages.statusChanged' })
    }
    if (intent === 'refund') {
      // The existing admin refund (orders service → gateway → ledger); the chat only names the order.
      const chat = await api(request, chatApi.adminDetails, { token, query: { chat_id: chatId, pageNum: 1, pageSize: 1 } })
      const done = await api(request, ordersApi.adminRefund, { token, body: { orderNo: chat.order.orderNo } })
      return redirectWithToast(request, here, { type: 'success', key: done.refund_state === 'done' ? 'orders.refunded' : 'orders.refundPending' })
    }
  } catch (e) {
    const field = intent === 'message' ? (refusalOf(e, 'username') && (e as { fieldErrors?: Record<string, unknown> }).fieldErrors?.username ? 'username' : 'content') : undefined
    const refused = field ? refusalOf(e, field) : intent === 'send' ? refusalOf(e) : null
    const content = typedText(form)
    if (refused) return data<Refusal>({ intent, field, error: refused, content }, { status: 400 })
    // 500–504: this page again with what was typed, and the dialog that offers to stay on it.
    return rowRefusal<Omit<Refusal, 'error'>>(request, e, { intent, field, content }, ['orders.refundFailed', 'orders.gatewayError'])
  }
  return data<Refusal>({ intent, error: 'errors.badRequest' }, { status: 400 })
}

/** What the admin weighs in a dispute: the order's payment and when its content was first shown. */
function Evidence({ chat }: { chat: ChatDetails }) {
  const { t } = useTranslation()
  const when = (iso: string | null) => (iso ? formatDateTime(iso) : t('messages.never'))
  const rows: [string, string][] = [
    [t('messages.orderNo'), chat.order.orderNo],
    [t('messages.field.buyer'), chat.username ?? t('messages.visitor')],
    [t('messages.field.product'), chat.order.product_name],
    [t('messages.field.amount'), `¥${chat.order.amount.toFixed(2)}`],
    [t('messages.field.paymentStatus'), t(`orders.statuses.${chat.order.payment_status}`, { defaultValue: chat.order.payment_status })],
    [t('messages.field.paidAt'), when(chat.order.paid_at)],
    [t('messages.field.firstRevealedAt'), when(chat.order.first_revealed_at)],
    [t('messages.field.refundedAt'), when(chat.order.refunded_at)],
    [t('messages.field.openedAt'), when(chat.created_at)],
  ]
  return (
    <Paper withBorder p="sm" data-testid="chat-evidence">
      <Title order={4} mb="xs">
        {t('messages.evidence')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={4}>
        {rows.map(([k, v]) => (
          <Text key={k} size="sm">
            <Text span c="dimmed">
              {k}:
            </Text>{' '}
            {v}
          </Text>
        ))}
      </SimpleGrid>
    </Paper>
  )
}

export default function MessageManage() {
  const { t } = useTranslation()
  const d = useLoaderData<typeof loader>()
  const last = useActionData<typeof action>()
  const location = useLocation()
  const revalidator = useRevalidator()
  const sending = useIsPending({ intent: 'message' })
  const when = (iso: string) => formatDateTime(iso)
  const errorOf = (intent: string, field?: string) => (last && last.intent === intent && (!field || last.field === field) ? t(last.error) : undefined)
  useLiveEvents((e) => {
    if ((e.type === 'message' && d.tab === 'messages') || ((e.type === 'chat' || e.type === 'chatStatus') && 'chats' in d)) revalidator.revalidate()
  })
  const params = new URLSearchParams(location.search)
  const olderHref = useOlderHref()
  /** What was typed into the form of `intent` before it was refused (a page without JavaScript is drawn afresh). */
  const typedFor = (intent: string) => (last && last.intent === intent ? last.content : undefined)
  const rowMessage = last && !last.field && last.intent !== 'send' ? t(last.error) : null
  return (
    <Stack>
      <Title order={2}>{t('menu.messageManage')}</Title>
      <TabLinks tabs={TABS} tab={d.tab} label={(k) => t(`messages.adminTabs.${k}`)} />
      <ConfirmLogout open={Boolean(last?.confirmLogout)} />
      {rowMessage ? (
        <Text c="red" role="alert">
          {rowMessage}
        </Text>
      ) : null}
      {'messages' in d && d.messages ? (
        <Stack>
          <Paper withBorder p="sm">
            <Form method="post">
              <Stack gap="xs">
                <Title order={4}>{d.conversationWith ? t('messages.conversationWith', { name: d.conversationWith }) : t('messages.writeToUser')}</Title>
                <TextInput
                  name="username"
                  label={t('messages.field.username')}
                  defaultValue={d.conversationWith ?? ''}
                  readOnly={Boolean(d.conversationWith)}
                  error={errorOf('message', 'username')}
                  required
                  autoComplete="off"
                />
                <MessageField label={t('messages.yourMessage')} error={errorOf('message', 'content')} typed={typedFor('message')} />
                <Group justify="space-between">
                  {d.userId ? (
                    <Button component={Link} to="?tab=messages" variant="subtle" size="xs">
                      {t('messages.allMessages')}
                    </Button>
                  ) : (
                    <span />
                  )}
                  <Button type="submit" name="intent" value="message" loading={sending}>
                    {t('messages.send')}
                  </Button>
                </Group>
              </Stack>
            </Form>
          </Paper>
          {d.messages.list.length === 0 ? <Text c="dimmed">{t('messages.noMessages')}</Text> : null}
          {d.messages.list.map((m) => (
            <PrivateMessage
              key={m.id}
              from={m.sender === 'admin' ? t('messages.platformTo', { name: m.username }) : m.username}
              at={when(m.created_at)}
              unread={m.sender === 'user' && !m.read_at}
              content={m.content}
              action={
                d.userId ? null : (
                  <Button component={Link} to={`?tab=messages&user=${m.user_id}`} size="compact-xs" variant="light">
                    {t('messages.conversation')}
                  </Button>
                )
              }
            />
          ))}
          <Pager total={d.messages.total} pageNum={d.messages.pageNum} pageSize={d.messages.pageSize} />
        </Stack>
      ) : null}
      {'chats' in d && d.chats ? (
        <Stack>
          <Form method="get">
            <input type="hidden" name="tab" value="chats" />
            <Group align="flex-end">
              <NativeSelect
                name="status"
                label={t('messages.field.status')}
                data={[{ value: '', label: t('common.all') }, ...CHAT_STATUSES.map((s) => ({ value: s, label: t(`messages.status.${s}`) }))]}
                defaultValue={params.get('status') ?? ''}
                w={160}
              />
              <TextInput name="keyword" label={t('messages.field.keyword')} defaultValue={params.get('keyword') ?? ''} w={240} />
              <Button type="submit" variant="light">
                {t('common.search')}
              </Button>
            </Group>
          </Form>
          <ChatList chats={d.chats} admin empty={t('common.empty')} />
        </Stack>
      ) : null}
      {'chat' in d && d.chat ? (
        <Stack>
          <ChatHeading product={d.chat.order.product_name} />
          <Evidence chat={d.chat} />
          {d.refund ? (
            <ConfirmDialog
              title={t('messages.refundTitle')}
              action={`?tab=chats&chat=${d.chat.id}`}
              closeTo={`?tab=chats&chat=${d.chat.id}`}
              intent="refund"
              fields={{ chat_id: d.chat.id }}
              confirmLabel={t('messages.refund')}
            >
              {t('messages.refundText', { orderNo: d.chat.order.orderNo, amount: d.chat.order.amount.toFixed(2) })}
            </ConfirmDialog>
          ) : null}
          <ChatThread
            chat={d.chat}
            reader="admin"
            olderHref={olderHref}
            error={last && last.intent === 'send' ? last.error : undefined}
            typed={typedFor('send')}
            actions={
              <Group gap="xs">
                <Form method="post">
                  <input type="hidden" name="chat_id" value={d.chat.id} />
                  <Group gap="xs" align="flex-end">
                    <NativeSelect
                      name="status"
                      aria-label={t('messages.field.status')}
                      data={CHAT_STATUSES.map((s) => ({ value: s, label: t(`messages.status.${s}`) }))}
                      defaultValue={d.chat.status}
                      size="xs"
                      w={130}
                    />
                    <Button type="submit" name="intent" value="status" size="xs" variant="default">
                      {t('messages.changeStatus')}
                    </Button>
                  </Group>
                </Form>
                {d.chat.order.refundable ? (
                  <Button component={Link} to={`?tab=chats&chat=${d.chat.id}&refund=1`} size="xs" color="red" variant="light" preventScrollReset>
                    {t('messages.refund')}
                  </Button>
                ) : null}
              </Group>
            }
          />
        </Stack>
      ) : null}
    </Stack>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
