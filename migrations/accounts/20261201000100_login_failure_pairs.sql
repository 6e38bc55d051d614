-- The login rate limit counts failures per account and client address.
CREATE INDEX login_failures_pair ON login_failures (email, ip, at);
