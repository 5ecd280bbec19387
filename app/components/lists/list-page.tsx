import { Group, Stack, Table, Text, Title } from '@mantine/core'
import { Form } from '@remix-run/react'
import { type ReactNode, useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { Page } from '#contract/envelope.ts'
import { Pager } from './pager.tsx'

type ListPageProps<T> = {
  title: string
  /** 3 when the list is a section of a page with its own title (the page's heading stays the one h2). */
  titleOrder?: 2 | 3
  /** Beside the title (a "new" button). */
  extra?: ReactNode
  /** The GET filter form. */
  filters?: ReactNode
  /** Above the filters: hints, a row action's message, the URL dialogs (without JavaScript the confirm step is the first thing on the page). */
  children?: ReactNode
  page: Page<T>
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth: number
  /** The header cells. */
  head: ReactNode
  /** One `<Table.Tr>` per item. */
  row: (item: T) => ReactNode
  /**
   * A queue (decision 125): the table becomes one POST form with this batch bar above it; rows tick
   * `ids` (SelectCell) and `rows` carries the order shown, so the action returns to the next item.
   */
  queue?: { bar: ReactNode; ids: number[] }
}

/** The shell of every list page: title, filters, the table, the empty state and the pager (URL-driven, so it works without JavaScript). */
export function ListPage<T>({ title, titleOrder = 2, extra, filters, children, page, minWidth, head, row, queue }: ListPageProps<T>) {
  const { t } = useTranslation()
  const listId = `list${useId().replace(/:/g, '')}`
  const table = (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped highlightOnHover id={listId}>
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{page.list.map(row)}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
  return (
    <Stack>
      {extra ? (
        <Group justify="space-between">
          <Title order={titleOrder}>{title}</Title>
          {extra}
        </Group>
      ) : (
        <Title order={titleOrder}>{title}</Title>
      )}
      {children}
      {filters ? (
        // Past the filters to the rows, for a keyboard or a text browser working through a queue (issue 23).
        <a href={`#${listId}`} className="ps-skip-link">
          {t('common.skipToList')}
        </a>
      ) : null}
      {filters}
      {queue ? (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="rows" value={queue.ids.join(',')} />
          <Stack>
            {queue.bar}
            {table}
          </Stack>
        </Form>
      ) : (
        table
      )}
      {page.list.length === 0 ? <Text c="dimmed">{t('common.empty')}</Text> : null}
      <Pager total={page.total} pageNum={page.pageNum} pageSize={page.pageSize} />
    </Stack>
  )
}
