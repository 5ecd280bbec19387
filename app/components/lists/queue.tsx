import { Anchor, Badge, Button, Group, Table, Text, TextInput } from '@mantine/core'
import { Link, useActionData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { SellerHistory } from '#contract/oversight.ts'
import type { ShareContent } from '#contract/shares.ts'
import { useIsPending } from '../forms/fields.tsx'

/**
 * The parts of an admin queue (decisions 125, 126): rows an admin ticks, one action for all of them
 * with an access key shown on its button, and what each row needs to be decided without another page.
 */

/** Whether the page was asked to tick every row (`?select=all`: "select all" works without JavaScript). */
export function useSelectAll() {
  const location = useLocation()
  const params = new URLSearchParams(location.search)
  const all = params.get('select') === 'all'
  if (all) params.delete('select')
  else params.set('select', 'all')
  const search = params.toString()
  return { all, toggle: search ? `${location.pathname}?${search}` : location.pathname }
}

/**
 * What a queue's form sent, echoed by a refused action (app/.server/queue.ts): without JavaScript the
 * page is rendered afresh, and the ticks and a typed reason come back from here (issue 23).
 */
export type QueueSent = { ids: number[]; values: Record<string, string> }

/** The queue form's sent values after a refusal on this page (the route's action data), if any. */
function useQueueSent(): QueueSent | undefined {
  const answer = useActionData() as { sent?: QueueSent } | undefined
  return answer?.sent
}

/** The header cell of the tick column: a link that ticks (or clears) every row of the page. */
export function SelectHead() {
  const { t } = useTranslation()
  const { all, toggle } = useSelectAll()
  return (
    <Table.Th>
      <Anchor component={Link} to={toggle} preventScrollReset replace size="xs">
        {all ? t('common.queue.selectNone') : t('common.queue.selectAll')}
      </Anchor>
    </Table.Th>
  )
}

/** A row's tick (`ids`); `item-<id>` is the anchor the queue comes back to after an action. */
export function SelectCell({ id, label }: { id: number; label: string }) {
  const { t } = useTranslation()
  const { all } = useSelectAll()
  const sent = useQueueSent()
  const checked = all || Boolean(sent?.ids.includes(id))
  return (
    <Table.Td>
      {/* Keyed by its state so the tick follows "select all" on a client navigation too. */}
      <input
        key={String(checked)}
        type="checkbox"
        name="ids"
        value={id}
        id={`item-${id}`}
        defaultChecked={checked}
        aria-label={t('common.queue.select', { item: label })}
      />
    </Table.Td>
  )
}

/** A field of the batch bar (a reason, a transfer number): what was typed comes back after a refusal. */
export function QueueField({ name, label, maxLength, autoComplete }: { name: string; label: string; maxLength: number; autoComplete?: string }) {
  const sent = useQueueSent()?.values[name]
  return <TextInput key={sent ?? ''} name={name} label={label} size="xs" maxLength={maxLength} autoComplete={autoComplete} defaultValue={sent} />
}

/** A batch action of a queue, with the field it reads (a reason, a transaction number) shown before its button. */
export type QueueAction = { intent: string; label: string; accessKey: string; color?: string; field?: React.ReactNode }

/**
 * A batch action: a submit button of the queue form with its access key, the key shown on it
 * (`[A]`, plain text so a text browser shows it too; decision 126).
 */
export function QueueButton({ intent, label, accessKey, color }: Omit<QueueAction, 'field'>) {
  const pending = useIsPending({ intent })
  return (
    <Button type="submit" name="intent" value={intent} accessKey={accessKey} variant="light" color={color} loading={pending} size="xs">
      {label}
      <span className="ps-key"> [{accessKey.toUpperCase()}]</span>
    </Button>
  )
}

/** The batch bar above a queue's table: its actions (and their fields), and how the access keys are pressed. */
export function QueueBar({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation()
  return (
    <Group align="flex-end" gap="xs" wrap="wrap" role="group" aria-label={t('common.queue.bar')}>
      {children}
      <Text size="xs" c="dimmed">
        {t('common.queue.keysHint')}
      </Text>
    </Group>
  )
}

/** The seller's record beside a queue item: refunds, reports, take-downs, banned shares, a banned account. */
export function SellerRecord({ seller }: { seller: SellerHistory | undefined }) {
  const { t } = useTranslation()
  if (!seller) return null
  return (
    <Text size="xs" c="dimmed" data-testid="seller-record">
      {t('common.queue.record', { refunds: seller.refunds, reports: seller.reports, takedowns: seller.takedowns, bans: seller.banned_shares })}
      {seller.is_banned ? (
        <Badge ml={4} size="xs" color="red" variant="light">
          {t('common.queue.accountBanned')}
        </Badge>
      ) : null}
    </Text>
  )
}

/** A share's content as the admin decides it: the text (first lines) or the link with its extraction code. */
export function ShareContentPreview({ content }: { content: ShareContent | undefined }) {
  const { t } = useTranslation()
  if (!content) return null
  if (content.type === 'text') {
    return (
      <Text size="xs" lineClamp={3} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="share-content">
        {content.content}
      </Text>
    )
  }
  return (
    <Text size="xs" style={{ overflowWrap: 'anywhere' }} data-testid="share-content">
      <Anchor href={content.content} target="_blank" rel="noopener noreferrer nofollow" size="xs">
        {content.content}
      </Anchor>
      {content.extraction_code ? ` ${t('common.queue.extractionCode', { code: content.extraction_code })}` : null}
    </Text>
  )
}
