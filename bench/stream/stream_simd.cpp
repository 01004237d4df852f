// simdjson contender of the stream benchmark: iterate_many over the whole
// input (simdjson's document-stream parser needs it in memory, padded), each
// event's four fields looked up and checked (On-Demand), and the record
// written back compact with the atdc runtime's string escaper, so that only
// the parsing differs from the atdc contenders.
#include <simdjson.h>

#include <cstring>
#include <string_view>

extern "C" {
#include "atd.h"
#include "stream_bench.h"
}

static bool write_event(atd_buf *out, std::string_view username, int64_t date,
                        std::string_view type, std::string_view payload)
{
    atd_buf_append(out, "{\"username\":", 12);
    if (atd_buf_write_string(out, username.data(), username.size(), 0) != 0)
        return false;
    atd_buf_append(out, ",\"date\":", 8);
    atd_buf_write_int64(out, date);
    atd_buf_append(out, ",\"event_type\":", 14);
    if (atd_buf_write_string(out, type.data(), type.size(), 0) != 0)
        return false;
    atd_buf_append(out, ",\"payload\":", 11);
    if (atd_buf_write_string(out, payload.data(), payload.size(), 0) != 0)
        return false;
    atd_buf_append(out, "}\n", 2);
    return out->status == 0;
}

extern "C" long stream_bench_simdjson(int in_fd, int out_fd)
{
    size_t len = 0;
    char *data = stream_bench_read_all(in_fd, &len, simdjson::SIMDJSON_PADDING);
    if (data == nullptr)
        return -1;
    // data has SIMDJSON_PADDING readable bytes after the input, as
    // iterate_many on a raw pointer requires.
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document_stream docs;
    if (parser.iterate_many(data, len, 1 << 20).get(docs)) {
        free(data);
        return -1;
    }
    atd_buf out;
    if (atd_buf_init_fd(&out, out_fd) != 0) {
        free(data);
        return -1;
    }
    long bad = 0;
    for (auto doc : docs) {
        simdjson::ondemand::object obj;
        std::string_view username, type, payload;
        int64_t date;
        if (doc.get_object().get(obj) || obj["username"].get_string().get(username) ||
            obj["date"].get_int64().get(date) || obj["event_type"].get_string().get(type) ||
            obj["payload"].get_string().get(payload) ||
            !(type == "Login" || type == "Purchase" || type == "Logout" || type == "Cancel") ||
            !write_event(&out, username, date, type, payload)) {
            bad++;
            continue;
        }
    }
    int rc = atd_buf_flush(&out);
    atd_buf_free(&out);
    free(data);
    return rc == 0 ? bad : -1;
}
