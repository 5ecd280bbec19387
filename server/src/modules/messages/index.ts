export { default as messagesModule } from './routes.ts'
export { spendMessagePoint, systemMessage, unreadMessageCounts } from './service.ts'
