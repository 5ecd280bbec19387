import { z } from 'zod'

// The two identifiers a visitor holds: a share code and an order number. A leaf module so that
// shares.ts and orders.ts can both use them without importing each other.

/** DESIGN §3: 8 characters from an alphabet without look-alikes (no 0/O/1/I/l). */
export const UNICODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
export const UNICODE_LENGTH = 8
export const UNICODE_PATTERN = new RegExp(`^[${UNICODE_ALPHABET}]{${UNICODE_LENGTH}}$`)
/** Our order numbers: `PS` + 14-digit time + 12 random digits (unguessable: holding one opens the content). */
export const ORDER_NO_PATTERN = /^PS\d{26}$/

export const unicodeSchema = z.string({ error: 'validation.unicode' }).trim().regex(UNICODE_PATTERN, 'validation.unicode')
export const orderNoSchema = z.string({ error: 'validation.orderNo' }).trim().regex(ORDER_NO_PATTERN, 'validation.orderNo')
