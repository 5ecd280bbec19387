import { Button, Group, Text } from '@mantine/core'
import { Link, useLocation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { parseDateInput } from '#app/utils/format.ts'

/** Page links driven by the URL (`pageNum`), so lists are bookmarkable and work without JavaScript. */
export function Pager({ total, pageNum, pageSize }: { total: number; pageNum: number; pageSize: number }) {
  const { t } = useTranslation()
  const location = useLocation()
  const pages = Math.max(1, Math.ceil(total / pageSize))
  const href = (n: number) => {
    const p = new URLSearchParams(location.search)
    p.set('pageNum', String(n))
    return `${location.pathname}?${p}`
  }
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {t('common.total', { count: total })}
      </Text>
      <Group gap="xs">
        <PageLink to={pageNum > 1 ? href(pageNum - 1) : null}>{t('common.prev')}</PageLink>
        <Text size="sm">{t('common.pageOf', { page: pageNum, pages })}</Text>
        <PageLink to={pageNum < pages ? href(pageNum + 1) : null}>{t('common.next')}</PageLink>
      </Group>
    </Group>
  )
}

/**
 * A link to the page before or after; at either end plain text, drawn like a disabled button — not a
 * link to `?pageNum=0` that a text browser or a keyboard would still follow (issue 23).
 */
function PageLink({ to, children }: { to: string | null; children: ReactNode }) {
  return to ? (
    <Button component={Link} to={to} variant="default" size="xs">
      {children}
    </Button>
  ) : (
    <Button component="span" variant="default" size="xs" data-disabled aria-disabled="true">
      {children}
    </Button>
  )
}

/** Parses `pageNum`/`pageSize` and string filters from a list URL. */
const DATE_FILTERS = new Set(['from', 'to'])

export function listParams(request: Request, filters: readonly string[] = []) {
  const url = new URL(request.url)
  const int = (v: string | null, d: number, max: number) => {
    const n = Number(v)
    return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : d
  }
  const query: Record<string, string | number> = {
    pageNum: int(url.searchParams.get('pageNum'), 1, 100000),
    pageSize: int(url.searchParams.get('pageSize'), 20, 100),
  }
  for (const f of filters) {
    const v = url.searchParams.get(f)?.trim()
    // Date filters as typed into a DateField (`2026/1/5`), read as `YYYY-MM-DD`.
    if (v) query[f] = DATE_FILTERS.has(f) ? (parseDateInput(v) ?? v.slice(0, 100)) : v.slice(0, 100)
  }
  return query
}
