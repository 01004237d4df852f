/* atd.h: the one public header of the atdc runtime library (atdrt).
 * Generated code includes only this header (plus standard headers). */
#ifndef ATD_H
#define ATD_H

#include "atd/common.h"
#include "atd/arena.h"
#include "atd/buf.h"
#include "atd/error.h"
#include "atd/number.h"
#include "atd/reader.h"
#include "atd/writer.h"
#include "atd/json.h"
#include "atd/value.h"
#include "atd/read_name.h"
#include "atd/adapter.h"
#include "atd/validate.h"
#include "atd/document.h"
#include "atd/biniou.h"
#include "atd/lazy.h"
#include "atd/stream.h"
#include "atd/pretty.h"
#include "atd/detail/entry_points.h"
#include "atd/detail/list.h"
#include "atd/detail/value_ops.h"

#endif
