export { channelOrders, sellerFeeRateBp } from './effects.ts'
export { default as channelsModule } from './routes.ts'
