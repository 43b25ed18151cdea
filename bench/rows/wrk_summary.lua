-- Prints wrk's totals as one JSON line, so bench/rows/http.py reads numbers
-- instead of parsing the human report. Latencies are in microseconds;
-- bad_status counts answers of 400 and over.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "bytes": %d, "p50_us": %d, "p99_us": %d, "max_us": %d, ' ..
    '"connect": %d, "read": %d, "write": %d, "timeout": %d, "bad_status": %d}\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.timeout, e.status))
end
