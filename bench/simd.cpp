/* simdjson (Debian libsimdjson-dev, C++) as a benchmark contender, behind the
 * small C interface declared in harness.h. Built only when CMake finds the
 * package.
 *
 * Two ways of reading: the DOM parser (parser reused across documents, as
 * simdjson recommends; the input is copied once into a padded_string outside
 * the timed loop) and On-Demand with a full traversal that touches every
 * value (strings unescaped, numbers converted), since On-Demand does no work
 * for values nobody asks for. Writing is simdjson::minify of a DOM element
 * (its serializer). Both walks fill the same dom_counts as the C
 * parsers, so the driver checks that simdjson read the same document.
 *
 * Only the error-code API is used: no exception crosses into C. */
#include "harness.h"

#include <simdjson.h>

#include <new>
#include <string>
#include <utility>

namespace {

struct simd_state {
    simdjson::padded_string input;
    simdjson::dom::parser dom_parser;
    simdjson::dom::element dom_root;
    simdjson::ondemand::parser od_parser;
    std::string printed; /* of the last simd_minify */
    simd_state(const char *json, size_t len) : input(json, len) {}
};

void count_dom(simdjson::dom::element e, dom_counts *c)
{
    switch (e.type()) {
    case simdjson::dom::element_type::ARRAY:
        c->arrays++;
        for (simdjson::dom::element x : simdjson::dom::array(e))
            count_dom(x, c);
        return;
    case simdjson::dom::element_type::OBJECT:
        c->objects++;
        for (simdjson::dom::key_value_pair kv : simdjson::dom::object(e)) {
            c->members++;
            c->string_bytes += kv.key.size();
            count_dom(kv.value, c);
        }
        return;
    case simdjson::dom::element_type::STRING:
        c->strings++;
        c->string_bytes += std::string_view(e).size();
        return;
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64:
    case simdjson::dom::element_type::DOUBLE:
        c->numbers++;
        return;
    case simdjson::dom::element_type::BOOL:
        if (bool(e))
            c->trues++;
        else
            c->falses++;
        return;
    case simdjson::dom::element_type::NULL_VALUE:
        c->nulls++;
        return;
    }
}

bool walk_value(simdjson::ondemand::value v, dom_counts *c);

bool walk_array(simdjson::ondemand::array a, dom_counts *c)
{
    c->arrays++;
    for (auto child : a) {
        simdjson::ondemand::value v;
        if (child.get(v) != simdjson::SUCCESS || !walk_value(v, c))
            return false;
    }
    return true;
}

bool walk_object(simdjson::ondemand::object o, dom_counts *c)
{
    c->objects++;
    for (auto member : o) {
        simdjson::ondemand::field f;
        std::string_view key;
        if (std::move(member).get(f) != simdjson::SUCCESS || f.unescaped_key().get(key) != simdjson::SUCCESS)
            return false;
        c->members++;
        c->string_bytes += key.size();
        if (!walk_value(f.value(), c))
            return false;
    }
    return true;
}

bool walk_value(simdjson::ondemand::value v, dom_counts *c)
{
    simdjson::ondemand::json_type t;
    if (v.type().get(t) != simdjson::SUCCESS)
        return false;
    switch (t) {
    case simdjson::ondemand::json_type::array: {
        simdjson::ondemand::array a;
        return v.get_array().get(a) == simdjson::SUCCESS && walk_array(a, c);
    }
    case simdjson::ondemand::json_type::object: {
        simdjson::ondemand::object o;
        return v.get_object().get(o) == simdjson::SUCCESS && walk_object(o, c);
    }
    case simdjson::ondemand::json_type::string: {
        std::string_view s;
        if (v.get_string().get(s) != simdjson::SUCCESS)
            return false;
        c->strings++;
        c->string_bytes += s.size();
        return true;
    }
    case simdjson::ondemand::json_type::number: {
        double d;
        if (v.get_double().get(d) != simdjson::SUCCESS)
            return false;
        c->numbers++;
        return true;
    }
    case simdjson::ondemand::json_type::boolean: {
        bool b;
        if (v.get_bool().get(b) != simdjson::SUCCESS)
            return false;
        if (b)
            c->trues++;
        else
            c->falses++;
        return true;
    }
    case simdjson::ondemand::json_type::null:
        if (!v.is_null())
            return false;
        c->nulls++;
        return true;
    }
    return false;
}

} // namespace

extern "C" {

void *simd_new(const char *json, size_t len)
{
    return new (std::nothrow) simd_state(json, len);
}

void simd_free(void *s)
{
    delete static_cast<simd_state *>(s);
}

bool simd_dom_parse(void *sp)
{
    simd_state *s = static_cast<simd_state *>(sp);
    return s->dom_parser.parse(s->input).get(s->dom_root) == simdjson::SUCCESS;
}

void simd_dom_count(void *sp, dom_counts *c)
{
    count_dom(static_cast<simd_state *>(sp)->dom_root, c);
}

/* The bench documents are arrays or objects at the top. */
bool simd_ondemand_walk(void *sp, dom_counts *c)
{
    simd_state *s = static_cast<simd_state *>(sp);
    simdjson::ondemand::document doc;
    if (s->od_parser.iterate(s->input).get(doc) != simdjson::SUCCESS)
        return false;
    simdjson::ondemand::json_type t;
    if (doc.type().get(t) != simdjson::SUCCESS)
        return false;
    if (t == simdjson::ondemand::json_type::array) {
        simdjson::ondemand::array a;
        if (doc.get_array().get(a) != simdjson::SUCCESS || !walk_array(a, c))
            return false;
    } else if (t == simdjson::ondemand::json_type::object) {
        simdjson::ondemand::object o;
        if (doc.get_object().get(o) != simdjson::SUCCESS || !walk_object(o, c))
            return false;
    } else {
        return false;
    }
    /* simdjson 3.0 has no document::at_end; its stage 1 has already
     * checked the structure of the whole input. */
    return true;
}

/* simdjson::minify of a DOM element is its serializer (to_string): the DOM
 * of the last simd_dom_parse written back as compact text, a new string each
 * call as simdjson returns it. */
size_t simd_minify(void *sp, const char **out)
{
    simd_state *s = static_cast<simd_state *>(sp);
    try {
        s->printed = simdjson::minify(s->dom_root);
    } catch (const std::bad_alloc &) {
        return (size_t)-1; /* no exception crosses into C */
    }
    *out = s->printed.data();
    return s->printed.size();
}

/* One document from nothing (padded copy, new parser), for the allocation
 * figures. */
bool simd_fresh_dom_parse(const char *json, size_t len)
{
    simd_state *s = new (std::nothrow) simd_state(json, len);
    bool ok = s != nullptr && simd_dom_parse(s);
    delete s;
    return ok;
}

bool simd_fresh_ondemand_walk(const char *json, size_t len)
{
    simd_state *s = new (std::nothrow) simd_state(json, len);
    dom_counts c = {};
    bool ok = s != nullptr && simd_ondemand_walk(s, &c);
    delete s;
    return ok;
}

const char *simd_version(void)
{
    /* SIMDJSON_VERSION is a bare token (3.0.1): make it a string. */
#define BENCH_STR2(x) #x
#define BENCH_STR(x) BENCH_STR2(x)
    return BENCH_STR(SIMDJSON_VERSION);
}

} // extern "C"
