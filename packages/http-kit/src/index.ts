export { ERROR_CODES, HttpError, type ErrorBody, type ErrorCode } from './http-error';
export { errorHandler, notFoundHandler } from './error-handler';
