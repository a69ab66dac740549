//! The step table as Parquet, through the `parquet` crate's column
//! writers (no Arrow): every column optional, rows gathered into row
//! groups of [`ROW_GROUP`] and written column by column.
//! (https://docs.rs/parquet/latest/parquet/column/index.html)

use std::sync::Arc;

use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::errors::Result;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use serde_json::Value;

/// Rows a row group holds.
const ROW_GROUP: usize = 65_536;

/// The table's schema: [`super::COLUMNS`], typed.
const SCHEMA: &str = "message step {
    OPTIONAL BYTE_ARRAY file (UTF8);
    OPTIONAL BYTE_ARRAY run (UTF8);
    OPTIONAL INT64 turn;
    OPTIONAL INT64 step;
    OPTIONAL BYTE_ARRAY phase (UTF8);
    OPTIONAL BYTE_ARRAY stop_reason (UTF8);
    OPTIONAL BYTE_ARRAY tool (UTF8);
    OPTIONAL BOOLEAN tool_error;
    OPTIONAL INT64 tokens_in;
    OPTIONAL INT64 tokens_out;
    OPTIONAL INT64 tokens_cached;
    OPTIONAL BYTE_ARRAY started (UTF8);
    OPTIONAL DOUBLE seconds;
    OPTIONAL BYTE_ARRAY outcome (UTF8);
    OPTIONAL INT64 max_turns;
}";

/// A Parquet file being written in memory: rows in, bytes out.
pub struct ParquetRows {
    writer: SerializedFileWriter<Vec<u8>>,
    pending: Vec<Vec<Value>>,
}

impl ParquetRows {
    pub fn new() -> Result<ParquetRows> {
        let schema = Arc::new(parse_message_type(SCHEMA)?);
        let properties = Arc::new(WriterProperties::builder().build());
        Ok(ParquetRows {
            writer: SerializedFileWriter::new(Vec::new(), schema, properties)?,
            pending: Vec::new(),
        })
    }

    pub fn push(&mut self, rows: impl Iterator<Item = Vec<Value>>) -> Result<()> {
        for row in rows {
            self.pending.push(row);
            if self.pending.len() >= ROW_GROUP {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// The whole file.
    pub fn finish(mut self) -> Result<Vec<u8>> {
        self.flush()?;
        self.writer.into_inner()
    }

    fn flush(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.pending);
        let mut group = self.writer.next_row_group()?;
        let mut column = 0;
        while let Some(mut writer) = group.next_column()? {
            let cells = rows.iter().map(|row| &row[column]);
            // Present cells have definition level 1, absent ones 0.
            let levels: Vec<i16> = cells.clone().map(|v| i16::from(!v.is_null())).collect();
            match column {
                0 | 1 | 4 | 5 | 6 | 11 | 13 => {
                    let values: Vec<ByteArray> = cells
                        .filter_map(Value::as_str)
                        .map(|s| ByteArray::from(s.as_bytes().to_vec()))
                        .collect();
                    writer
                        .typed::<ByteArrayType>()
                        .write_batch(&values, Some(&levels), None)?;
                }
                7 => {
                    let values: Vec<bool> = cells.filter_map(Value::as_bool).collect();
                    writer
                        .typed::<BoolType>()
                        .write_batch(&values, Some(&levels), None)?;
                }
                12 => {
                    let values: Vec<f64> = cells.filter_map(Value::as_f64).collect();
                    writer
                        .typed::<DoubleType>()
                        .write_batch(&values, Some(&levels), None)?;
                }
                _ => {
                    let values: Vec<i64> = cells
                        .filter_map(Value::as_u64)
                        .map(|n| i64::try_from(n).unwrap_or(i64::MAX))
                        .collect();
                    writer
                        .typed::<Int64Type>()
                        .write_batch(&values, Some(&levels), None)?;
                }
            }
            writer.close()?;
            column += 1;
        }
        group.close()?;
        Ok(())
    }
}
