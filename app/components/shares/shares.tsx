import { Alert, Anchor, Button, List, Table, Text } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { SHARE_SORTS, SHARE_STATUSES, SHARE_TYPES } from '#contract/values/shares.ts'
import { type PublicShare } from '#contract/shares.ts'
import type { LinkSummary } from '#contract/links.ts'
import { formatDateTime } from '#app/utils/format.ts'
import { TOAST_MS } from '../feedback/flash.tsx'
import { useHydrated } from '#app/hooks/use-hydrated.ts'

import { DateTimeCell, ShareCodeLink, ShareStatusBadge, yuan } from './cells.tsx'
import { FilterForm, SelectFilter, TextFilter } from '#app/components/lists/filters.tsx'
import type { ReactNode } from 'react'

export { DateTimeCell, PaymentStatusBadge, ShareCodeLink, ShareStatusBadge, yuan } from './cells.tsx'

/** The header cells of both share lists up to the actions column; `withSeller` puts the seller under the title (the admin's list). */
export function ShareHeadCells({ withSeller }: { withSeller?: boolean }) {
  const { t } = useTranslation()
  return (
    <>
      <Table.Th>
        {t('shares.field.title')}
        {withSeller ? <> / {t('shares.field.seller')}</> : null}
      </Table.Th>
      <Table.Th>{t('shares.field.unicode')}</Table.Th>
      <Table.Th>{t('shares.field.type')}</Table.Th>
      <Table.Th ta="right">{t('shares.field.price')}</Table.Th>
      <Table.Th ta="right">{t('shares.field.visits')}</Table.Th>
      <Table.Th ta="right">{t('shares.field.purchases')}</Table.Th>
      <Table.Th>{t('shares.field.status')}</Table.Th>
      <Table.Th>{t('shares.field.subscription')}</Table.Th>
      <Table.Th>{t('shares.field.createdAt')}</Table.Th>
    </>
  )
}

/** The cells of a share row in both share lists, matching ShareHeadCells; each list adds its actions. */
export function ShareCells({ share: s, withSeller, children }: { share: PublicShare; withSeller?: boolean; children?: ReactNode }) {
  const { t } = useTranslation()
  return (
    <>
      {/* A floor under the title's width: squeezed by the other columns it was cut to a few characters. */}
      <Table.Td miw={180} maw={280}>
        <Text size="sm" lineClamp={2} title={s.title}>
          {s.title}
        </Text>
        {withSeller ? (
          <Text size="xs" c="dimmed">
            {s.user_name}
          </Text>
        ) : null}
        {children}
      </Table.Td>
      <Table.Td>
        <ShareCodeLink unicode={s.unicode} newTab />
      </Table.Td>
      <Table.Td>{t(`shares.types.${s.type}`)}</Table.Td>
      <Table.Td ta="right">{yuan(s.price)}</Table.Td>
      <Table.Td ta="right">{s.visit_count}</Table.Td>
      <Table.Td ta="right">{s.purchase_count}</Table.Td>
      <Table.Td>
        <ShareStatusBadge status={s.status} />
        {s.link !== undefined ? <LinkStateNote link={s.link} /> : null}
      </Table.Td>
      <Table.Td>{t(`shares.subscription.${s.subscription_status}`)}</Table.Td>
      <Table.Td>
        <DateTimeCell iso={s.created_at} />
      </Table.Td>
    </>
  )
}

/** A url or netdisk share's link under its status (issue 25): its state and last check; red while dead. */
function LinkStateNote({ link }: { link: LinkSummary | null }) {
  const { t } = useTranslation()
  const state = link?.stopped_at ? 'stopped' : (link?.state ?? 'unchecked')
  return (
    <Text size="xs" c={state === 'stopped' || state === 'dead' ? 'red' : 'dimmed'} data-link-state={state} mt={2}>
      {t('links.column.link')}: {t(`links.state.${state}`)} · {link?.checked_at ? formatDateTime(link.checked_at) : t('links.never')}
    </Text>
  )
}

/** DESIGN §3: publishing needs a bound security phone and the agreed disclaimer. */
export function PublishRequirements({ phone, terms }: { phone: boolean; terms: boolean }) {
  const { t } = useTranslation()
  if (phone && terms) return null
  return (
    <Alert color="orange" variant="light" title={t('shares.requirements.title')} role="alert">
      {t('shares.requirements.text')}
      <List size="sm" mt={4}>
        {!phone ? (
          <List.Item>
            <Anchor component={Link} to="/user/setting#security-phone" size="sm">
              {t('shares.requirements.phone')}
            </Anchor>
          </List.Item>
        ) : null}
        {!terms ? (
          <List.Item>
            <Anchor component={Link} to="/agreement/exemptionagree" size="sm">
              {t('shares.requirements.terms')}
            </Anchor>
          </List.Item>
        ) : null}
      </List>
    </Alert>
  )
}

/** The GET filter form of both share lists: a text filter (the seller's title, the admin's keyword), type, status and sort. */
export function ShareFilters({ textFilter }: { textFilter: 'title' | 'keyword' }) {
  const { t } = useTranslation()
  return (
    <FilterForm>
      <TextFilter name={textFilter} label={textFilter === 'title' ? t('shares.list.titleFilter') : t('shares.list.keyword')} />
      <SelectFilter name="type" label={t('shares.field.type')} options={SHARE_TYPES.map((v) => [v, t(`shares.types.${v}`)] as const)} />
      <SelectFilter name="status" label={t('shares.field.status')} options={SHARE_STATUSES.map((v) => [v, t(`shares.statuses.${v}`)] as const)} />
      <SelectFilter name="sort" label={t('shares.list.sort')} all={false} fallback="created_at" options={SHARE_SORTS.map((v) => [v, t(`shares.list.sorts.${v}`)] as const)} />
      <SelectFilter
        name="order"
        label={t('shares.list.order')}
        all={false}
        fallback="desc"
        options={[
          ['desc', t('shares.list.desc')],
          ['asc', t('shares.list.asc')],
        ]}
      />
    </FilterForm>
  )
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    // No clipboard API (plain http, or the document lost focus): the old selection route.
    const area = document.createElement('textarea')
    area.value = text
    area.setAttribute('readonly', '')
    area.style.position = 'fixed'
    area.style.opacity = '0'
    document.body.appendChild(area)
    area.select()
    let ok = false
    try {
      ok = document.execCommand('copy')
    } catch {}
    area.remove()
    return ok
  }
}

/** Copies a link with JavaScript and says 'Copy succeeded...' (SPEC §8); renders nothing without it. */
export function CopyLinkButton({ url, label }: { url: string; label?: string }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  if (!hydrated) return null
  return (
    <Button
      type="button"
      size="compact-xs"
      variant="light"
      onClick={async () => {
        const ok = await copyText(url)
        notifications.show({ color: ok ? 'green' : 'red', message: ok ? t('common.copySuccess') : t('shares.list.copyFailed'), autoClose: TOAST_MS })
      }}
    >
      {label ?? t('shares.list.copyLink')}
    </Button>
  )
}
