-- A short tour of Kestrel on the TPC-H sample that scripts/run.sh generates in data/tpch-sf0.01.
SELECT 1 + 2 AS x, 'a' AS s;
SHOW TABLES;
DESCRIBE lineitem;
-- TPC-H Q1 (pricing summary), exact DECIMAL arithmetic.
SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,
       sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price, avg(l_discount) AS avg_disc, count(*) AS count_order
FROM lineitem
WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY
GROUP BY l_returnflag, l_linestatus
ORDER BY l_returnflag, l_linestatus;
-- A join, a correlated sub-query and a top-N.
SELECT c_name, o_orderkey, o_totalprice
FROM customer JOIN orders ON c_custkey = o_custkey
WHERE o_totalprice > (SELECT avg(o2.o_totalprice) FROM orders o2 WHERE o2.o_custkey = c_custkey) * 2
ORDER BY o_totalprice DESC
LIMIT 5;
EXPLAIN SELECT n_name, count(*) FROM supplier JOIN nation ON s_nationkey = n_nationkey GROUP BY n_name;
