-- A short tour of what Kestrel runs today. scripts/run.sh runs this on the TPC-H sample in data/.
SELECT 1 + 2 AS x, 'a' AS s;
SELECT 12.50 * 3 AS price, CAST('1998-12-01' AS DATE) - INTERVAL '90' DAY AS cutoff;
