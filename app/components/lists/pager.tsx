import { Button, Group, Text } from '@mantine/core'
import { Link, useLocation } from '@remix-run/react'
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
        <Button component={Link} to={href(pageNum - 1)} variant="default" size="xs" disabled={pageNum <= 1} data-disabled={pageNum <= 1 || undefined} aria-disabled={pageNum <= 1} onClick={(e) => pageNum <= 1 && e.preventDefault()}>
          {t('common.prev')}
        </Button>
        <Text size="sm">{t('common.pageOf', { page: pageNum, pages })}</Text>
        <Button component={Link} to={href(pageNum + 1)} variant="default" size="xs" disabled={pageNum >= pages} data-disabled={pageNum >= pages || undefined} aria-disabled={pageNum >= pages} onClick={(e) => pageNum >= pages && e.preventDefault()}>
          {t('common.next')}
        </Button>
      </Group>
    </Group>
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
