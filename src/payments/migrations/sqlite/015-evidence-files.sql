-- Evidence moves to files of its own, one per week of expiry, deleted whole once the week has expired
-- (src/payments/sqlite-evidence.ts says why). The store copies the rows into the files before this runs, in this
-- migration's transaction; the files commit first, so a crash before this commits leaves the rows in both places
-- and the copy runs again at the next open. Dropping the table frees its pages, reading each blob's overflow
-- chain once, as the pruning of these rows would have.
DROP TABLE certificate_evidence;
