import { Table } from '@mantine/core'
import type { ReactNode } from 'react'

/** A striped table of header labels and rows, scrolling sideways below `minWidth` (a page's own table, not a list page). */
export function PlainTable({ minWidth, head, children }: { minWidth: number; head: string[]; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            {head.map((label) => (
              <Table.Th key={label}>{label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
