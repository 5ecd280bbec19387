import { z } from 'zod'

// The two identifiers a visitor holds: a share code and an order number. A leaf module so that
// shares.ts and orders.ts can both use them without importing each other.

/** DESIGN §3: 8 characters from an alphabet without look-alikes (no 0/O/1/I/l). */
export const UNICODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
export const UNICODE_LENGTH = 8
export const UNICODE_PATTERN = new RegExp(`^[${UNICODE_ALPHABET}]{${UNICODE_LENGTH}}$`)
/** Our order numbers: `PS` + 14-digit time + 12 random digits (unguessable: holding one opens the content). */
export const ORDER_NO_PATTERN = /^PS\d{26}$/

/**
 * What a seller sees of its buyers' order numbers (decision 102): the time and the last four digits —
 * enough to match a payment the buyer describes, eight digits short of the number.
 */
export const MASKED_ORDER_NO_PATTERN = /^PS\d{14}\*{8}\d{4}$/
export const maskOrderNo = (value: string) => (ORDER_NO_PATTERN.test(value) ? `${value.slice(0, 16)}********${value.slice(-4)}` : value)

/**
 * The buyer key (decision 102): 128 random bits, base64url, given by `POST /api/orders/create` to the
 * client that created the order and kept by the console in the buyer's signed purchase cookie. It is
 * that browser's proof of being the buyer, and travels only in this header — never in a URL or a body.
 */
export const BUYER_KEY_HEADER = 'x-buyer-key'
export const BUYER_KEY_PATTERN = /^[A-Za-z0-9_-]{22}$/

export const unicodeSchema = z.string({ error: 'validation.unicode' }).trim().regex(UNICODE_PATTERN, 'validation.unicode')
export const orderNoSchema = z.string({ error: 'validation.orderNo' }).trim().regex(ORDER_NO_PATTERN, 'validation.orderNo')
export const buyerKeySchema = z.string({ error: 'validation.buyerKey' }).regex(BUYER_KEY_PATTERN, 'validation.buyerKey')
