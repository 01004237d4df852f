(* The atdgen side of the differential test (differential.sh): the
   conversions of one type, built from the functions atdgen generated for
   it; diff_types.ml (written by gen_docs) lists every type of a schema. *)

type conv = {
  json2json : string -> string;
  json2bin : string -> string;
  bin2json : string -> string;
  bin2bin : string -> string;
}

let hex s =
  String.concat "" (List.init (String.length s) (fun i -> Printf.sprintf "%02x" (Char.code s.[i])))

let unhex h =
  String.init (String.length h / 2) (fun i -> Char.chr (int_of_string ("0x" ^ String.sub h (2 * i) 2)))

let no_biniou _ = failwith "no biniou for this schema"

let conv (jr : string -> 'a) (jw : 'a -> string)
    (bin : ((string -> 'a) * ('a -> string)) option) =
  match bin with
  | None -> { json2json = (fun s -> jw (jr s)); json2bin = no_biniou; bin2json = no_biniou;
              bin2bin = no_biniou }
  | Some (br, bw) ->
      {
        json2json = (fun s -> jw (jr s));
        json2bin = (fun s -> hex (bw (jr s)));
        bin2json = (fun s -> jw (br (unhex s)));
        bin2bin = (fun s -> hex (bw (br (unhex s))));
      }
