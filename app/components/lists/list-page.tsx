import { Button, Group, Stack, Table, Text, Title } from '@mantine/core'
import { Form, Link } from '@remix-run/react'
import { Fragment, type ReactNode, useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { Page } from '#contract/envelope.ts'
import { Pager } from './pager.tsx'
import { QueueBar, QueueButton, type QueueAction, SelectHead } from './queue.tsx'
import { LIST_ID } from './list-target.ts'

export type { ListHandle } from './list-target.ts'

type ListPageProps<T> = {
  title: string
  /** 3 when the list is a section of a page with its own title (the page's heading stays the one h2). */
  titleOrder?: 2 | 3
  /** The "new" button beside the title (a dialog of the page or a page of its own). */
  create?: { to: string; label: string }
  /** The GET filter form. */
  filters?: ReactNode
  /** Above the filters: hints, a row action's message, the URL dialogs (without JavaScript the confirm step is the first thing on the page). */
  children?: ReactNode
  page: Page<T>
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth: number
  /** The header cells, or their labels (a plain `<th>` each; `right` for a column of amounts). */
  head: ReactNode | (string | { label: string; right: true })[]
  /** A last header cell for the rows' actions (the sticky column of class `ps-actions`). */
  actions?: boolean
  /** One `<Table.Tr>` per item. */
  row: (item: T) => ReactNode
  /**
   * A queue (decision 125): the table becomes one POST form with a batch bar of these actions above it
   * and a "select all" header cell; rows tick `ids` (SelectCell) and `rows` carries the order shown, so
   * the action returns to the next item.
   */
  queue?: { actions: QueueAction[]; ids: number[] }
}

/** The shell of every list page: title, filters, the table, the empty state and the pager (URL-driven, so it works without JavaScript). */
export function ListPage<T>({ title, titleOrder = 2, create, filters, children, page, minWidth, head, actions, row, queue }: ListPageProps<T>) {
  const { t } = useTranslation()
  // The page's own list is `#list`; a list that is a section of another page gets an id of its own.
  const sectionId = `list${useId().replace(/:/g, '')}`
  const listId = titleOrder === 2 ? LIST_ID : sectionId
  const table = (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {queue ? <SelectHead /> : null}
            {Array.isArray(head)
              ? head.map((column) =>
                  typeof column === 'string' ? (
                    <Table.Th key={column}>{column}</Table.Th>
                  ) : (
                    <Table.Th key={column.label} ta="right">
                      {column.label}
                    </Table.Th>
                  ),
                )
              : head}
            {actions ? <Table.Th className="ps-actions">{t('common.actions')}</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        {/* The skip link's target is the rows (decision 154): past a queue's "select all" in the header row, the first row's controls come next. */}
        <Table.Tbody id={listId} className="ps-list-rows">
          {page.list.map(row)}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
  return (
    <Stack>
      {create ? (
        <Group justify="space-between">
          <Title order={titleOrder}>{title}</Title>
          <Button component={Link} to={create.to} preventScrollReset>
            {create.label}
          </Button>
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
            <QueueBar>
              {queue.actions.map(({ field, ...action }) => (
                <Fragment key={action.intent}>
                  {field}
                  <QueueButton {...action} />
                </Fragment>
              ))}
            </QueueBar>
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
