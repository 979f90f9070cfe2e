/**
 * For tests and benches that read the offerings' items raw from the twin's table (the market
 * page's Query measured next to the call, a listing polled without the API): their key builders.
 * Other domains go through the public module (../index), never through these keys.
 */
export { marketPartition, offeringKey, typesKey } from '../offerings.keys';
