/** A server's name in servers.json: how every part of Atrium refers to it. */
export type ServerId = string;
